package main

import "runtime/debug"

// version is set in release builds with
// -ldflags "-X main.version=v1.2.3".
var version = ""

// devVersion names a build from a source tree; it starts with a number,
// as SARIF consumers compare tool versions.
const devVersion = "0.1.0-dev"

// versionString returns the release version, else the module version
// recorded by `go install module@version`, else devVersion.
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	return versionFrom(version, info, ok)
}

func versionFrom(release string, info *debug.BuildInfo, ok bool) string {
	if release != "" {
		return release
	}
	if ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return devVersion
}
