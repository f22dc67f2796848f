//! The conformance scenarios (Tests/conformance): not present on this branch yet.
use crate::Test;

pub const TESTS: &[Test] = &[];
