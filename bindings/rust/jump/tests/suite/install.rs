//! The README's Install line for Rust, as an app would follow it: a new cargo project whose Cargo.toml has
//! `jump = { path = ".../bindings/rust/jump" }`, libjump found through pkg-config (a jump.pc like `make
//! install` writes, pointing at the library under test) with JUMP_LIB_DIR unset, built offline by the cargo
//! running this suite, then run.
//! And the crates as `cargo package` makes them: unpacked into a directory source that replaces crates.io,
//! depended on by version from a new project (the quickstart, with the README's build.rs for the rpath),
//! built with JUMP_LIB_DIR and run against the suite's emulator with LD_LIBRARY_PATH unset.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{scratch_dir, Emulator};
use crate::Test;

pub const TESTS: &[Test] = &[
    ("install_as_a_path_dependency", install_as_a_path_dependency),
    ("install_from_packaged_crates", install_from_packaged_crates),
    ("readme_build_rs_is_the_tested_one", readme_build_rs_is_the_tested_one),
];

fn install_as_a_path_dependency(_: &Emulator) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let crate_dir = root.join("bindings/rust/jump").canonicalize().unwrap();
    let libdir = std::env::var("JUMP_LIB_DIR").expect("JUMP_LIB_DIR (run-tests.sh sets it)");
    let app = scratch_dir();
    std::fs::create_dir_all(format!("{}/src", app)).unwrap();
    std::fs::write(
        format!("{}/Cargo.toml", app),
        format!(
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\njump = {{ path = \"{}\" }}\n\n[workspace]\n",
            crate_dir.display()
        ),
    )
    .unwrap();
    std::fs::write(
        format!("{}/src/main.rs", app),
        "fn main() {\n    let client = jump::Client::from_json(\"{\\\"storageDirectory\\\":\\\":memory:\\\"}\").expect(\"client\");\n    println!(\"libjump {} signed in: {}\", jump::version(), client.is_signed_in());\n}\n",
    )
    .unwrap();
    std::fs::write(
        format!("{}/jump.pc", app),
        format!("libdir={}\nincludedir=/nonexistent\n\nName: jump\nDescription: test\nVersion: {}\nLibs: -L${{libdir}} -ljump\nCflags: -I${{includedir}}\n", libdir, jump::version()),
    )
    .unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let built = Command::new(&cargo)
        .args(["build", "--offline", "--quiet"])
        .current_dir(&app)
        .env_remove("JUMP_LIB_DIR")
        .env("PKG_CONFIG_PATH", &app)
        .env("CARGO_TARGET_DIR", format!("{}/target", app))
        .output()
        .expect("cargo");
    assert!(built.status.success(), "cargo build: {}", String::from_utf8_lossy(&built.stderr));
    let ran = Command::new(format!("{}/target/debug/app", app)).output().expect("the app");
    let text = String::from_utf8_lossy(&ran.stdout);
    assert!(ran.status.success() && text.contains(&format!("libjump {} signed in: false", jump::version())), "{}", text);
    let _ = std::fs::remove_dir_all(&app);
}

fn checked(what: &str, out: Output) -> Output {
    assert!(out.status.success(), "{}: {}{}", what, String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    out
}

/// Cargo unpacks a registry's crate once, into $CARGO_HOME/registry/src/<registry>/<name>-<version>, and
/// reuses that copy while it is there; and it rebuilds a registry crate only when its version changes, not
/// its files. `cargo package --workspace` verifies jump against jump-sys through a local registry at the same
/// path every run, so a jump-sys changed since an earlier run (same version) would be read from the earlier
/// run's copy, or its earlier build. Removes those copies of the workspace's crates that differ from the
/// sources (`file` of each crate, e.g. src/lib.rs), and the verification's build (`target`/debug), so that
/// the verification builds what was packaged.
fn forget_stale_unpacked_crates(workspace: &Path, target: &str) {
    let _ = std::fs::remove_dir_all(Path::new(target).join("debug"));
    let home = std::env::var("CARGO_HOME").map(PathBuf::from).unwrap_or_else(|_| {
        PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo")
    });
    let version = env!("CARGO_PKG_VERSION");
    let registries = match std::fs::read_dir(home.join("registry/src")) {
        Ok(entries) => entries,
        Err(_) => return, // nothing unpacked yet
    };
    for registry in registries.flatten() {
        for (name, file) in [("jump-sys", "src/lib.rs"), ("jump", "src/client.rs")] {
            let unpacked = registry.path().join(format!("{}-{}", name, version));
            if let (Ok(copy), Ok(source)) = (std::fs::read(unpacked.join(file)), std::fs::read(workspace.join(name).join(file))) {
                if copy != source {
                    let _ = std::fs::remove_dir_all(&unpacked);
                }
            }
        }
    }
}

/// `cargo package` of the workspace into `target` (its package/ folder): both crates, each verified by a
/// build of its packaged contents (offline: they depend on nothing else). A cargo before 1.83 (Debian's
/// 1.65) cannot verify, or even package, jump while jump-sys is on no registry: it packages jump-sys alone,
/// then jump with crates.io replaced by a directory holding that packaged jump-sys (unverified: the app
/// below builds it anyway).
fn package_crates(cargo: &str, manifest: &Path, target: &str) -> Vec<PathBuf> {
    let version = env!("CARGO_PKG_VERSION");
    let package = |args: &[&str]| {
        Command::new(cargo)
            .args(["package", "--offline", "--allow-dirty", "--manifest-path"])
            .arg(manifest)
            .args(args)
            .env("CARGO_TARGET_DIR", target)
            .output()
            .expect("cargo package")
    };
    let crate_file = |name: &str| PathBuf::from(format!("{}/package/{}-{}.crate", target, name, version));
    let all = package(&["--workspace"]);
    if !all.status.success() {
        let stderr = String::from_utf8_lossy(&all.stderr);
        assert!(stderr.contains("--workspace") || stderr.contains("no matching package named `jump-sys`"),
                "cargo package: {}", stderr);
        checked("cargo package -p jump-sys", package(&["-p", "jump-sys"]));
        let sys_only = format!("{}/vendor-jump-sys", target);
        let _ = std::fs::remove_dir_all(&sys_only);
        unpack_as_directory_source(&[crate_file("jump-sys")], &sys_only);
        let replace = "source.crates-io.replace-with=\"packaged\"".to_owned();
        let directory = format!("source.packaged.directory=\"{}\"", sys_only);
        checked("cargo package -p jump",
                package(&["-p", "jump", "--no-verify", "--config", &replace, "--config", &directory]));
    }
    ["jump-sys", "jump"].iter().map(|name| crate_file(name)).collect()
}

/// A directory source at `dir`: each .crate unpacked, with a .cargo-checksum.json naming its sha256.
fn unpack_as_directory_source(crates: &[PathBuf], dir: &str) {
    std::fs::create_dir_all(dir).unwrap();
    for file in crates {
        let sum = checked("sha256sum", Command::new("sha256sum").arg(file).output().expect("sha256sum"));
        let sum = String::from_utf8_lossy(&sum.stdout).split_whitespace().next().unwrap_or("").to_owned();
        checked("tar", Command::new("tar").arg("xzf").arg(file).arg("-C").arg(dir).output().expect("tar"));
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        std::fs::write(format!("{}/{}/.cargo-checksum.json", dir, name), format!("{{\"files\":{{}},\"package\":\"{}\"}}", sum)).unwrap();
    }
}

fn install_from_packaged_crates(emu: &Emulator) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize().unwrap();
    let libdir = std::env::var("JUMP_LIB_DIR").expect("JUMP_LIB_DIR (run-tests.sh sets it)");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Beside the suite's own target dir (build/rust/<toolchain>), reused from run to run.
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| root.join("build/rust/default").display().to_string());
    let package_target = format!("{}-package", target);
    forget_stale_unpacked_crates(&root.join("bindings/rust"), &package_target);
    let crates = package_crates(&cargo, &root.join("bindings/rust/Cargo.toml"), &package_target);

    let app = scratch_dir();
    let vendor = format!("{}/vendor", app);
    unpack_as_directory_source(&crates, &vendor);
    std::fs::create_dir_all(format!("{}/.cargo", app)).unwrap();
    std::fs::write(
        format!("{}/.cargo/config.toml", app),
        format!("[source.crates-io]\nreplace-with = \"packaged\"\n\n[source.packaged]\ndirectory = \"{}\"\n", vendor),
    )
    .unwrap();
    // The README's application setup: both crates by version, and the build.rs that makes the rpath.
    let version = env!("CARGO_PKG_VERSION");
    std::fs::write(
        format!("{}/Cargo.toml", app),
        format!(
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\njump = \"{v}\"\njump-sys = \"{v}\"\n\n[workspace]\n",
            v = version
        ),
    )
    .unwrap();
    std::fs::write(format!("{}/build.rs", app), README_BUILD_RS).unwrap();
    std::fs::create_dir_all(format!("{}/src", app)).unwrap();
    std::fs::copy(root.join("examples/rust/quickstart.rs"), format!("{}/src/main.rs", app)).unwrap();
    let built = Command::new(&cargo)
        .args(["build", "--offline", "--quiet"])
        .current_dir(&app)
        .env("JUMP_LIB_DIR", &libdir)
        .env_remove("PKG_CONFIG_PATH")
        .env("CARGO_TARGET_DIR", format!("{}/target", app))
        .output()
        .expect("cargo");
    checked("cargo build (packaged crates)", built);

    // No LD_LIBRARY_PATH: libjump.so.1 is found through the binary's rpath alone.
    let storage = format!("{}/storage", app);
    let ran = Command::new(format!("{}/target/debug/app", app)).args([&emu.url, &storage]).env_remove("LD_LIBRARY_PATH").output().expect("the app");
    let out = String::from_utf8_lossy(&ran.stdout).into_owned();
    assert!(ran.status.success(), "the quickstart from the packaged crates failed: {}{}", out, String::from_utf8_lossy(&ran.stderr));
    assert!(out.contains(&format!("libjump {}", jump::version())), "{}", out);
    assert!(out.contains("synced: [\"/aboutMe\"]") && out.contains("signed out: true"), "{}", out);
    let _ = std::fs::remove_dir_all(&app);
}

/// The build.rs README.md gives an application (kept identical to it: `readme_build_rs_is_the_tested_one`).
const README_BUILD_RS: &str = r#"fn main() {
    if let Ok(dir) = std::env::var("DEP_JUMP_RPATH") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    }
}
"#;

fn readme_build_rs_is_the_tested_one(_: &Emulator) {
    let readme = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md")).unwrap();
    assert!(readme.contains(README_BUILD_RS), "bindings/rust/README.md no longer shows the build.rs install_from_packaged_crates uses:\n{}", README_BUILD_RS);
}
