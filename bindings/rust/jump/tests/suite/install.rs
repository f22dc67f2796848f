//! The README's Install line for Rust, as an app would follow it: a new cargo project whose Cargo.toml has
//! `jump = { path = ".../bindings/rust/jump" }`, libjump found through pkg-config (a jump.pc like `make
//! install` writes, pointing at the library under test) with JUMP_LIB_DIR unset, built offline by the cargo
//! running this suite, then run.
use std::path::PathBuf;
use std::process::Command;

use crate::support::{scratch_dir, Emulator};
use crate::Test;

pub const TESTS: &[Test] = &[("install_as_a_path_dependency", install_as_a_path_dependency)];

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
