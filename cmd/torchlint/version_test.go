package main

import (
	"os/exec"
	"path/filepath"
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
