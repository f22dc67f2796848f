//! The conformance suite (Tests/conformance, README.md there is the contract): every scenario played by
//! this binding's runner (bindings/rust/conformance/runner.rs, built as the conformance_runner example)
//! through Tests/conformance/run.py, which starts its own emulator and judges each outcome. Each
//! scenario's PASS/FAIL line counts as one test of this suite. The outcomes are saved in
//! build/conformance/rust.jsonl for Tests/conformance/check.py.
use std::path::{Path, PathBuf};
use std::process::Command;

/// The checkout's root (bindings/rust/jump is this crate).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// Where the scenarios are: $JUMP_CONFORMANCE_DIR, else the checkout's Tests/conformance.
pub fn directory() -> Option<PathBuf> {
    let dir = std::env::var_os("JUMP_CONFORMANCE_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("Tests/conformance"));
    if dir.join("run.py").is_file() && dir.join("scenarios.json").is_file() {
        Some(dir)
    } else {
        None
    }
}

/// (scenario, passed, run.py's line) for every scenario whose name contains `filter`; Err when run.py
/// gave no verdict at all.
pub fn run(dir: &Path, filter: &str) -> Result<Vec<(String, bool, String)>, String> {
    let examples = std::env::var("JUMP_RUST_EXAMPLES").map_err(|_| "JUMP_RUST_EXAMPLES is not set (run-tests.sh sets it)")?;
    let runner = format!("{}/conformance_runner", examples);
    let out = root().join("build/conformance/rust.jsonl");
    let _ = std::fs::create_dir_all(out.parent().unwrap());
    let mut command = Command::new("python3");
    command.arg(dir.join("run.py")).arg("rust").arg("--out").arg(&out);
    let scenarios = std::fs::read_to_string(dir.join("scenarios.json")).map_err(|e| e.to_string())?;
    let names: Vec<String> = jump::json::parse(&scenarios)
        .and_then(|d| d.get("scenarios").and_then(|s| s.as_array()).map(|a| a.iter().filter_map(|s| s.str_of("name")).collect()))
        .unwrap_or_default();
    let chosen: Vec<&String> = names.iter().filter(|n| n.contains(filter)).collect();
    if chosen.is_empty() {
        return Ok(vec![]);
    }
    for name in &chosen {
        command.arg("--scenario").arg(name);
    }
    command.arg("--").arg(&runner);
    let done = command.current_dir(dir.join("../..")).output().map_err(|e| format!("python3 run.py: {}", e))?;
    let stdout = String::from_utf8_lossy(&done.stdout);
    let mut verdicts = Vec::new();
    for name in chosen {
        let line = stdout.lines().find(|l| l.starts_with(&format!("PASS {} ", name)) || l.starts_with(&format!("FAIL {} ", name)) || *l == format!("PASS {}", name));
        match line {
            Some(l) => verdicts.push((name.clone(), l.starts_with("PASS"), l.to_owned())),
            None => verdicts.push((name.clone(), false, format!("FAIL {}: no verdict from run.py: {}", name, String::from_utf8_lossy(&done.stderr)))),
        }
    }
    Ok(verdicts)
}
