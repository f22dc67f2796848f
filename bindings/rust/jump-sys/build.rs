// Links libjump: from $JUMP_LIB_DIR when set (a build tree: build/lib), else where `pkg-config --libs jump`
// says (an installed libjump, scripts/jump.pc.in), else the linker's default paths. pkg-config is run as a
// command: the crate has no dependencies.
//
// The directory found is also an rpath, so that a program runs without LD_LIBRARY_PATH. Cargo applies a
// build script's `cargo:rustc-link-arg` only to the targets of the package whose build script it is (never
// to a dependent's binary, rust-lang/cargo#9554), so the directory is handed on as well: `cargo:rpath=DIR`
// is `DEP_JUMP_RPATH` in the build script of a package that depends on jump-sys directly, which emits
// `cargo:rustc-link-arg=-Wl,-rpath,DIR` for its own binaries (the jump crate's build.rs does, for its
// examples and tests; an application does the same in a three-line build.rs, see README.md).
// JUMP_NO_RPATH=1 leaves the rpath out (a library found through the system's library path needs none).
use std::env;
use std::process::Command;

fn lib_dir() -> Option<String> {
    if let Some(dir) = env::var_os("JUMP_LIB_DIR").filter(|d| !d.is_empty()) {
        return Some(dir.to_string_lossy().into_owned());
    }
    let out = Command::new("pkg-config").args(["--libs-only-L", "jump"]).output().ok()?;
    if !out.status.success() {
        return None;
    }
    // The last -L: jump.pc gives one (its libdir).
    String::from_utf8_lossy(&out.stdout).split_whitespace().filter_map(|f| f.strip_prefix("-L")).map(str::to_owned).last()
}

fn main() {
    println!("cargo:rerun-if-env-changed=JUMP_LIB_DIR");
    println!("cargo:rerun-if-env-changed=JUMP_NO_RPATH");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rustc-link-lib=jump");
    match lib_dir() {
        Some(dir) => {
            println!("cargo:rustc-link-search=native={}", dir);
            println!("cargo:lib_dir={}", dir);
            if env::var_os("JUMP_NO_RPATH").map_or(true, |v| v.is_empty() || v == "0") {
                println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
                println!("cargo:rpath={}", dir);
            }
        }
        None => println!("cargo:warning=libjump not found by JUMP_LIB_DIR or pkg-config (jump.pc); trying the linker's default paths"),
    }
}
