/// The C library, for every file of the package: signalpath runs on Linux only (ALSA, `/proc`,
/// glibc's calls), so this is the one place that imports it, re-exported to the module's files
/// and to the executable.
@_exported import Glibc

/// Processors online, at least 1: the default number of workers.
public var onlineProcessorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
