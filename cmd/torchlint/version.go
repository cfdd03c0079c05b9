package main

import (
	"runtime/debug"
	"strings"
	"time"
)

// version, commit and date are set in release builds with
// -ldflags "-X main.version=v1.2.3 -X main.commit=abc1234 -X main.date=2026-01-02T15:04:05Z"
// (.goreleaser.yaml passes the tag, the short commit and the commit date).
var (
	version = ""
	commit  = ""
	date    = ""
)

// devVersion names a build from a source tree; it starts with a number,
// as SARIF consumers compare tool versions.
const devVersion = "0.1.0-dev"

// versionString returns the release version, else the module version
// recorded by `go install module@version`, else devVersion; a release
// build's commit and date follow as SemVer build metadata
// (v1.2.3+abc1234.2026-01-02), so that the string stays a valid
// semantic version for SARIF.
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	return versionFrom(version, info, ok) + buildMetadata(commit, date)
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

// buildMetadata returns "+COMMIT.DATE" (either may be absent), or "" when
// neither is set. An RFC 3339 date is shortened to its UTC day; any
// character SemVer does not allow in build metadata becomes '-'.
func buildMetadata(commit, date string) string {
	if t, err := time.Parse(time.RFC3339, date); err == nil {
		date = t.UTC().Format("2006-01-02")
	}
	var ids []string
	for _, s := range []string{commit, date} {
		s = strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' {
				return r
			}
			return '-'
		}, strings.TrimSpace(s))
		if s != "" {
			ids = append(ids, s)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return "+" + strings.Join(ids, ".")
}
