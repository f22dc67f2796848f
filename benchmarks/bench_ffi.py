#!/usr/bin/env python3
"""bench_ffi.py - what a jump_* call costs from Python ctypes, against a ctypes call of a C no-op.

Usage: bench_ffi.py LIBJUMP_SO CONFIG_JSON
CONFIG_JSON configures the client for jump_client_is_signed_in (run.sh points it at a saved session, so the
call sees a signed-in client; no network is used). Prints ROW lines for run.sh's table (tab-separated:
group, measurement, value, unit, baseline, baseline value, ratio, note).
"""
import ctypes
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH_DIR = os.path.join(os.path.dirname(HERE), "build", "bench")
CALLS = int(os.environ.get("BENCH_FFI_CALLS", "100000"))  # calls per timed loop
ROUNDS = int(os.environ.get("BENCH_FFI_ROUNDS", "21"))    # timed loops per function; we report the median


def build_noop():
    """Compiles noop.c at run time so the baseline is built by the same compiler and flags, every run."""
    os.makedirs(BENCH_DIR, exist_ok=True)
    target = os.path.join(BENCH_DIR, "libnoop.so")
    source = os.path.join(HERE, "noop.c")
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", target, source], check=True)
    return ctypes.CDLL(target)


def per_call_ns(function, argument, rounds):
    """Median over rounds of the mean ns/call of a tight loop. The loop itself is the same for every
    function, so it cancels out of the ratios; the empty-loop row shows how big it is."""
    samples = []
    loop = range(CALLS)
    for _ in range(rounds):
        if argument is None:
            start = time.perf_counter_ns()
            for _ in loop:
                function()
            samples.append((time.perf_counter_ns() - start) / CALLS)
        else:
            start = time.perf_counter_ns()
            for _ in loop:
                function(argument)
            samples.append((time.perf_counter_ns() - start) / CALLS)
    return samples


def main():
    library_path, config_json = sys.argv[1], sys.argv[2]
    jump = ctypes.CDLL(library_path)
    noop = build_noop()

    # Declared as a binding would declare them: exact argument and result types.
    jump.jump_abi_version.argtypes, jump.jump_abi_version.restype = [], ctypes.c_int32
    jump.jump_client_is_signed_in.argtypes, jump.jump_client_is_signed_in.restype = [ctypes.c_void_p], ctypes.c_int
    jump.jump_status_str.argtypes, jump.jump_status_str.restype = [ctypes.c_int], ctypes.c_char_p
    jump.jump_config_from_json.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    jump.jump_client_new.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
    jump.jump_config_free.argtypes = [ctypes.c_void_p]
    jump.jump_client_free.argtypes = [ctypes.c_void_p]
    jump.jump_error_last.restype = ctypes.c_char_p
    noop.noop_int.argtypes, noop.noop_int.restype = [], ctypes.c_int32
    noop.noop_ptr.argtypes, noop.noop_ptr.restype = [ctypes.c_void_p], ctypes.c_int
    noop.noop_str.argtypes, noop.noop_str.restype = [ctypes.c_int], ctypes.c_char_p

    config, client = ctypes.c_void_p(), ctypes.c_void_p()
    if jump.jump_config_from_json(config_json.encode(), ctypes.byref(config)) != 0 or \
            jump.jump_client_new(config, ctypes.byref(client)) != 0:
        sys.exit("bench_ffi: cannot create a client: %s" % jump.jump_error_last().decode())
    jump.jump_config_free(config)
    signed_in = jump.jump_client_is_signed_in(client)

    # (label, function, argument, baseline label, baseline function); -1 = JUMP_E_INVALID_ARGUMENT.
    cases = [
        ("jump_abi_version()", jump.jump_abi_version, None, "no-op int(void)", noop.noop_int),
        ("jump_client_is_signed_in(client)%s" % ("" if signed_in else " [signed out]"),
         jump.jump_client_is_signed_in, client, "no-op int(void *)", noop.noop_ptr),
        ("jump_status_str(-1)", jump.jump_status_str, -1, "no-op const char *(int)", noop.noop_str),
    ]
    for _, function, argument, _, baseline in cases:  # warm up caches and ctypes' call paths
        per_call_ns(function, argument, 1)
        per_call_ns(baseline, argument, 1)

    # Interleave function and baseline round by round so drifting machine load hits both alike.
    results = {label: ([], []) for label, *_ in cases}
    empty = []
    for _ in range(ROUNDS):
        for label, function, argument, _, baseline in cases:
            results[label][0].extend(per_call_ns(function, argument, 1))
            results[label][1].extend(per_call_ns(baseline, argument, 1))
        start = time.perf_counter_ns()
        for _ in range(CALLS):
            pass
        empty.append((time.perf_counter_ns() - start) / CALLS)

    for label, _, _, baseline_label, _ in cases:
        ours, theirs = (statistics.median(s) for s in results[label])
        print("ROW\tFFI (Python ctypes)\t%s\t%.1f\tns/call\t%s\t%.1f\t%.2f\t%+.0f ns in libjump" %
              (label, ours, baseline_label, theirs, ours / theirs, ours - theirs))
    print("ROW\tFFI (Python ctypes)\tthe Python for-loop alone\t%.1f\tns/iteration\t\t\t\tincluded in every row above" %
          statistics.median(empty))
    jump.jump_client_free(client)


if __name__ == "__main__":
    main()
