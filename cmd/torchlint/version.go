package main

import "runtime/debug"

// version is set in release builds with
// -ldflags "-X main.version=v1.2.3".
var version = ""

// versionString returns the release version, else the module version
// recorded by `go install`, else "dev".
func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}
