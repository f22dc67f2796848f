// swift-tools-version:6.1
import PackageDescription

// libjump: the SDK core (JumpCore), its C ABI (Jump -> libjump.so) and the local emulator.
// The emulator shares no code with the SDK (design.md section 2).

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
        .target(
            name: "JumpCore",
            dependencies: ["CJansson", "CCurl", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "Jump",
            dependencies: ["JumpCore", "CJansson"],
            exclude: ["exports.map"],
            swiftSettings: [
                // The compiler's view of the exports, compared with include/jump.h by the ABI test.
                .unsafeFlags(["-emit-clang-header-path", "build/gen/jump-swift.h"]),
            ],
            linkerSettings: [
                // The .so carries the Swift runtime (no libswiftCore on the host), exports only jump_*,
                // has a soname, and is never unloaded (Swift code does not survive dlclose).
                .unsafeFlags([
                    "-static-stdlib",
                    "-l_FoundationCollections",
                    "-l_FoundationCShims",
                    "-lswiftSynchronization",
                    "-lswiftDispatch",
                    "-Xlinker", "--gc-sections",
                    "-Xlinker", "--version-script=Sources/Jump/exports.map",
                    "-Xlinker", "-soname=libjump.so.1",
                    "-Xlinker", "-z", "-Xlinker", "nodelete",
                ]),
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
        .testTarget(name: "JumpCoreTests", dependencies: ["JumpCore"]),
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
