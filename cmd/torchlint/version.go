package main

import "runtime/debug"

// version is set in release builds with
// -ldflags "-X main.version=v1.2.3".
var version = ""

// devVersion names a build from a source tree; it starts with a number,
// as SARIF consumers compare tool versions.
const devVersion = "0.1.0-dev"

// versionString returns the release version, else the module version
// recorded by `go install`, else devVersion.
func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return devVersion
}
