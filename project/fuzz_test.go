package project

import "testing"

// FuzzConfig feeds any bytes to the configuration parser, as a
// pyproject.toml and as a torchlint.toml: an error or a configuration,
// never a panic.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		"[tool.torchlint]\nselect = [\"TL1\"]\n",
		"[tool.torchlint.per-file-ignores]\n\"a/*.py\" = [\"TL101\"]\n",
		"select = \"x\"\nbogus = 1\n",
		"extend = \"other.toml\"\nexclude = [\"a\", \"b/**\"]\nrespect-gitignore = false\n",
		"[project]\nname = 'x'\n[tool.black]\nline-length = 1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"pyproject.toml", "torchlint.toml"} {
			fc, _, err := parseConfig(name, data)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error message")
				}
				continue
			}
			for pattern := range fc.PerFileIgnores {
				_ = keyLine(data, name, "per-file-ignores", pattern)
			}
			_ = keyLine(data, name, "select")
		}
	})
}
