// Links libjump: from $JUMP_LIB_DIR when set (a build tree: build/lib), else where `pkg-config --libs jump`
// says (an installed libjump, scripts/jump.pc.in), else the linker's default paths. pkg-config is run as a
// command: the crate has no dependencies.
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=JUMP_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rustc-link-lib=jump");
    if let Some(dir) = env::var_os("JUMP_LIB_DIR").filter(|d| !d.is_empty()) {
        println!("cargo:rustc-link-search=native={}", dir.to_string_lossy());
        return;
    }
    let found = Command::new("pkg-config").args(["--libs-only-L", "jump"]).output();
    if let Ok(out) = found {
        if out.status.success() {
            for flag in String::from_utf8_lossy(&out.stdout).split_whitespace() {
                if let Some(dir) = flag.strip_prefix("-L") {
                    println!("cargo:rustc-link-search=native={}", dir);
                }
            }
            return;
        }
    }
    println!("cargo:warning=libjump not found by JUMP_LIB_DIR or pkg-config (jump.pc); trying the linker's default paths");
}
