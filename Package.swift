// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "comanda",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "comanda", targets: ["comanda"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // zlib from the system (Debian: zlib1g-dev), for gzip responses.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // libqrencode from the system (Debian: libqrencode-dev), for QR codes.
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // libcurl with OpenSSL from the system (Debian: libcurl4-openssl-dev),
        // for the one outbound connection: the billing records to the AEAT.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // OpenSSL from the system (Debian: libssl-dev), to read the AEAT
        // certificate's PKCS#12 file: its password, holder and expiry.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // libxml2 from the system (Debian: libxml2-dev; Foundation's XML is
        // built on it): its streaming writer writes the requests to the AEAT.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // QR codes as PNG: libqrencode's modules, zlib's deflate.
        .target(name: "ComandaQR", dependencies: ["CQRencode", "CZlib"]),
        // accept4 and sched_getaffinity, which need _GNU_SOURCE.
        .target(name: "CSystem"),
        // Below everything of ours: the one lock (a pthread mutex, which the
        // thread sanitizer sees), the one promise, the one way to start a
        // thread, and JSON string escaping.
        .target(name: "ComandaRuntime", dependencies: ["CSystem"]),
        // Our own HTTP/1.1 server on BSD sockets and Dispatch.
        .target(
            name: "ComandaHTTP",
            dependencies: [
                "CZlib", "CSystem", "ComandaRuntime",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The domain: menu, orders, users, waitlist. No HTTP, no SQL.
        .target(
            name: "ComandaCore",
            dependencies: [
                "CSystem", "ComandaRuntime",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // SQLite through GRDB over the system libsqlite3.
        .target(
            name: "ComandaStore",
            dependencies: [
                "ComandaCore", "ComandaRuntime",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own API, for the hottest statements (FastStatement).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // SHA-256 in the frozen migrations that made links (v9, v21).
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Public/ and Config/ built into the binary (symlinks
        // in the target's folder point at them), for a binary run from anywhere.
        .target(
            name: "ComandaResources",
            resources: [.embedInCode("Public"), .embedInCode("Config")]
        ),
        // Routes binding HTTP to the domain, configuration, error mapping.
        .target(
            name: "ComandaApp",
            dependencies: [
                "ComandaHTTP", "ComandaCore", "ComandaStore", "ComandaResources", "ComandaRuntime", "ComandaQR",
                "CCurl", "COpenSSL", "CLibXML2",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "comanda",
            dependencies: [
                "ComandaApp", "ComandaCore", "ComandaResources", "CSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The RestaurantQueue app's feed parser (seed 004), ported faithfully
        // for the tests, which run it as a child process: its crash is a failed test.
        .executableTarget(name: "legacy-feed-parser", path: "Tests/LegacyFeedParser"),
        // The waitlist's accuracy benchmark (scripts/waitlist-sim.sh), run on demand.
        .executableTarget(name: "waitlist-sim", dependencies: ["ComandaCore"], path: "Tools/WaitlistSim"),
        // A raw-socket HTTP client and server fixtures, for the tests only.
        .target(
            name: "ComandaTestSupport",
            dependencies: ["ComandaHTTP", "ComandaRuntime", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "ComandaCoreTests", dependencies: ["ComandaCore", "ComandaTestSupport", "ComandaQR"]),
        .testTarget(
            name: "ComandaStoreTests",
            dependencies: ["ComandaStore", "ComandaCore", "ComandaHTTP", "ComandaRuntime", "ComandaTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "ComandaHTTPTests", dependencies: ["ComandaHTTP", "ComandaRuntime", "ComandaTestSupport"]),
        .testTarget(
            name: "ComandaAppTests",
            dependencies: [
                "ComandaApp", "ComandaHTTP", "ComandaStore", "ComandaCore", "ComandaTestSupport", "ComandaResources", "ComandaRuntime",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Read from the source tree by the tests (#filePath), not bundled.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
