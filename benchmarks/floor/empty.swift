// benchmarks/floor/empty.swift - the floor under any Swift C-ABI library: one C-callable no-op and nothing
// else. benchmarks/run.sh links it exactly as Package.swift links libjump.so (-static-stdlib, libstdc++.a,
// --gc-sections, only floor_* exported, -z nodelete, no implicit _StringProcessing/_Concurrency import), so
// its size and load time are what the statically linked Swift runtime alone costs. Compared with libjump in
// the Size and Cold start rows: the difference is libjump's own code and glue, the rest no change to libjump
// can remove.
@_cdecl("floor_noop") public func floor_noop() -> Int32 { 0 }
