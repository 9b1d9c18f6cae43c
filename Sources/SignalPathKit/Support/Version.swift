/// The version `signalpath --version` prints.
public let signalPathVersion = "0.1.0"
