// swift-tools-version:6.1
import PackageDescription
import Foundation

// libjump: the SDK core (JumpCore), its C ABI (Jump -> libjump.so) and the local emulator.
// The emulator shares no code with the SDK (docs/conventions.md#layers).

// libjump's own modules use neither regex literals nor async/await: without the implicit imports the static
// runtime's _StringProcessing (1.1 MiB) and _Concurrency (0.4 MiB) are not linked into libjump.so at all.
let leanSwift: [SwiftSetting] = [
    .unsafeFlags([
        "-Xfrontend", "-disable-implicit-string-processing-module-import",
        "-Xfrontend", "-disable-implicit-concurrency-module-import",
    ]),
]

let package = Package(
    name: "libjump",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "jump", type: .dynamic, targets: ["Jump"]),
        .library(name: "JumpCore", targets: ["JumpCore"]),
        .executable(name: "jump-emulator", targets: ["jump-emulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        .systemLibrary(name: "CJansson", pkgConfig: "jansson", providers: [.apt(["libjansson-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libcrypto: already loaded by libcurl (libcurl4-openssl), so it adds no library to a process.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The Secret Service through libsecret, loaded with dlopen (no link-time dependency; Sources/CSecretService).
        .target(name: "CSecretService", linkerSettings: [.linkedLibrary("dl")]),
        // Fibers: an _async operation's stack, switched with ucontext (docs/design-io.md).
        .target(name: "CFiber"),
        // The asynchronous runtime: fibers, their pool, the I/O loop, the waits, locks and threads, fork safety,
        // cancellation and the call's deadline (docs/design-io.md). It knows nothing of JumpCore, and the
        // compiler keeps it so. Cross-module optimization lets JumpCore inline its locks' fast paths.
        .target(
            name: "JumpRuntime",
            dependencies: ["CFiber", "CCurl"],
            swiftSettings: leanSwift + [.unsafeFlags(["-cross-module-optimization"])]
        ),
        .target(
            name: "JumpCore",
            dependencies: ["JumpRuntime", "CJansson", "CCurl", "CCrypto", "CSecretService"],
            swiftSettings: leanSwift
        ),
        .target(
            name: "Jump",
            dependencies: ["JumpCore", "JumpRuntime", "CJansson"],
            exclude: ["exports.map"],
            swiftSettings: leanSwift + [
                // The compiler's view of the exports, compared with include/jump.h by the ABI test.
                .unsafeFlags(["-emit-clang-header-path", "build/gen/jump-swift.h"]),
            ],
            linkerSettings: [
                // The .so carries the Swift runtime (no libswiftCore on the host), exports only jump_*,
                // has a soname, and is never unloaded (Swift code does not survive dlclose).
                .unsafeFlags([
                    "-static-stdlib",
                    "-lswiftSynchronization",
                    "-lswiftDispatch",
                    "-Xlinker", "--gc-sections",
                    "-Xlinker", "--version-script=Sources/Jump/exports.map",
                    "-Xlinker", "-soname=libjump.so.1",
                    "-Xlinker", "-z", "-Xlinker", "nodelete",
                    // libstdc++.a before libstdc++.so (the Makefile links it there): see the Makefile's `lib`.
                    "-Lbuild/gen/static-cxx",
                ]),
                // What each archive and object of the release library contributes (scripts/size-breakdown.py).
                .unsafeFlags(["-Xlinker", "-Map=build/gen/libjump.map"], .when(configuration: .release)),
            ]
        ),
        .target(
            name: "JumpEmulator",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        .executableTarget(
            name: "jump-emulator",
            dependencies: [
                "JumpEmulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "JumpCoreTests", dependencies: ["JumpCore", "JumpRuntime"]),
        .testTarget(
            name: "JumpEmulatorTests",
            dependencies: [
                "JumpEmulator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ]
)

// make fuzz (scripts/fuzz.sh) sets JUMP_FUZZ=1 to add the libFuzzer harness: its entry point is libFuzzer's
// LLVMFuzzerTestOneInput and libFuzzer brings main(), so it builds only with --sanitize=fuzzer and is absent
// from every other build (swift test would otherwise try to link it).
if ProcessInfo.processInfo.environment["JUMP_FUZZ"] == "1" {
    package.targets.append(.executableTarget(
        name: "jump-fuzz",
        dependencies: ["JumpCore"],
        // Swift 5 mode: the harness is single-threaded (libFuzzer calls it from one thread) and keeps its
        // fixtures in globals.
        swiftSettings: [.unsafeFlags(["-parse-as-library"]), .swiftLanguageMode(.v5)]
    ))
    package.products.append(.executable(name: "jump-fuzz", targets: ["jump-fuzz"]))
}
