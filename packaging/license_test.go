package packaging

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLicense checks that the licence is stated the same way everywhere a
// user reads it: the LICENSE file, the wheel's metadata, the release
// archives and the README.
func TestLicense(t *testing.T) {
	root := repoRoot(t)
	read := func(parts ...string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(append([]string{root}, parts...)...))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	license := read("LICENSE")
	for _, want := range []string{"MIT License\n", "Copyright (c) 2026 The torchlint authors\n"} {
		if !strings.Contains(license, want) {
			t.Errorf("LICENSE lacks %q", want)
		}
	}
	pyproject := read("packaging", "python", "pyproject.toml")
	for _, want := range []string{`license = { text = "MIT" }`, `"License :: OSI Approved :: MIT License"`} {
		if !strings.Contains(pyproject, want) {
			t.Errorf("pyproject.toml lacks %s", want)
		}
	}
	if !strings.Contains(read("packaging", "python", "build_wheels.py"), `"LICENSE"`) {
		t.Error("build_wheels.py does not put LICENSE in the wheel")
	}
	if !strings.Contains(read(".goreleaser.yaml"), "- LICENSE\n") {
		t.Error(".goreleaser.yaml does not put LICENSE in the archives")
	}
	readme := read("README.md")
	if !strings.Contains(readme, "\n## License\n") || !strings.Contains(readme, "[MIT License](LICENSE)") {
		t.Error("README.md has no License section linking LICENSE")
	}
}
