import ArgumentParser
import InviteKitMLS

/// `--profile current|mip`: which Marmot profile a new KeyPackage or group speaks (PROTOCOL
/// §5.12). The current profile (MDK ≥ 0.9.5, White Noise) is the default; `mip` is for MDK 0.8
/// peers and groups made before it.
struct ProfileOption: ParsableArguments {
    @Option(name: .customLong("profile"), help: "Marmot profile: current (MDK 0.9, default) or mip (MDK 0.8).")
    var profile: MarmotWireProfile = .current
}

extension MarmotWireProfile: ExpressibleByArgument {}
