package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionSources(t *testing.T) {
	installed := &debug.BuildInfo{Main: debug.Module{Path: "github.com/torchlint/torchlint", Version: "v0.3.1"}}
	local := &debug.BuildInfo{Main: debug.Module{Path: "github.com/torchlint/torchlint", Version: "(devel)"}}
	cases := []struct {
		release string
		info    *debug.BuildInfo
		want    string
	}{
		{"v1.2.3", installed, "v1.2.3"}, // -ldflags wins
		{"", installed, "v0.3.1"},       // go install module@v0.3.1
		{"", local, devVersion},         // go build / go install ./... in a checkout
		{"", nil, devVersion},
	}
	for _, c := range cases {
		if got := versionFrom(c.release, c.info, c.info != nil); got != c.want {
			t.Errorf("versionFrom(%q, %v) = %q, want %q", c.release, c.info, got, c.want)
		}
	}
}

// TestVersionFromLdflags builds the binary as a release build would and
// runs it.
func TestVersionFromLdflags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "torchlint")
	build := exec.Command("go", "build", "-ldflags", "-X main.version=v9.8.7", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "torchlint v9.8.7" {
		t.Errorf("--version of a release build: %q, %v", out, err)
	}
}

func TestBuildMetadata(t *testing.T) {
	cases := []struct{ commit, date, want string }{
		{"", "", ""},
		{"abc1234", "", "+abc1234"},
		{"", "2026-01-02T23:04:05-03:00", "+2026-01-03"}, // the UTC day
		{"abc1234", "2026-01-02T15:04:05Z", "+abc1234.2026-01-02"},
		{"abc1234", "Jan 2 2026", "+abc1234.Jan-2-2026"}, // not RFC 3339: kept, made valid
	}
	for _, c := range cases {
		if got := buildMetadata(c.commit, c.date); got != c.want {
			t.Errorf("buildMetadata(%q, %q) = %q, want %q", c.commit, c.date, got, c.want)
		}
	}
}

// TestVersionCommitDate stamps a commit and a date as .goreleaser.yaml
// does: --version shows them, and the SARIF report's semanticVersion is
// still a valid SemVer 2.0.0 string.
func TestVersionCommitDate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "torchlint")
	build := exec.Command("go", "build", "-ldflags",
		"-X main.version=v9.8.7 -X main.commit=0123abc -X main.date=2026-03-04T05:06:07Z", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "torchlint v9.8.7+0123abc.2026-03-04" {
		t.Errorf("--version of a stamped release build: %q, %v", out, err)
	}
	cmd := exec.Command(bin, "check", "--isolated", "--output-format", "sarif", "-")
	cmd.Stdin = strings.NewReader("x = 1\n")
	out, err = cmd.Output()
	if err != nil {
		t.Fatalf("check: %v\n%s", err, out)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					SemanticVersion string `json:"semanticVersion"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v\n%s", err, out)
	}
	// The SemVer 2.0.0 grammar (semver.org), build metadata included.
	semver := regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
	if v := log.Runs[0].Tool.Driver.SemanticVersion; v != "9.8.7+0123abc.2026-03-04" || !semver.MatchString(v) {
		t.Errorf("SARIF semanticVersion = %q, want 9.8.7+0123abc.2026-03-04", v)
	}
}
