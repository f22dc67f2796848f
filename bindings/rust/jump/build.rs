// Puts libjump's directory (found by jump-sys's build script: $JUMP_LIB_DIR or pkg-config) as an rpath into
// this package's own binaries (its examples and tests), which then run without LD_LIBRARY_PATH. Cargo does not
// pass a dependency's `cargo:rustc-link-arg` on, so each package that builds programs says it itself; an
// application depending on jump does the same with a build.rs of its own (README.md).
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_JUMP_RPATH");
    if let Some(dir) = std::env::var_os("DEP_JUMP_RPATH").filter(|d| !d.is_empty()) {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.to_string_lossy());
    }
}
