package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// showProject writes a small project: a configuration with a selection,
// a per-file ignore and `src`, an ignored folder, and files in two
// folders.
func showProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pyproject.toml":  "[project]\nname = \"demo\"\n\n[tool.torchlint]\nselect = [\"TL1\", \"TL403\"]\nignore = [\"TL104\"]\nsrc = [\"lib\"]\nextend-exclude = [\"legacy\"]\n\n[tool.torchlint.per-file-ignores]\n\"tests/*\" = [\"TL403\"]\n",
		".gitignore":      "build/\n",
		"train.py":        "import torch\n",
		"lib/data.py":     "import torch\n",
		"b.py":            "import torch\n",
		"tests/a_test.py": "import torch\n",
		"build/gen.py":    "import torch\n",
		"legacy/old.py":   "import torch\n",
		"notes.txt":       "not Python\n",
		"nb/demo.ipynb":   `{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`,
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestShowFiles(t *testing.T) {
	dir := showProject(t)
	code, out, stderr := runIn(t, dir, "check", "--show-files", ".")
	want := "b.py\nlib/data.py\nnb/demo.ipynb\ntests/a_test.py\ntrain.py\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, want, stderr)
	}
	code, out, _ = runIn(t, dir, "check", "--show-files", "--extend-exclude", "tests", "train.py", "lib")
	if code != 0 || out != "train.py\nlib/data.py\n" {
		t.Errorf("paths named: exit %d, stdout:\n%s", code, out)
	}
}

func TestShowSettings(t *testing.T) {
	dir := showProject(t)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runIn(t, dir, "check", "--show-settings", "--extend-select", "TL203", ".")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"Resolved settings for: b.py\n",
		"Settings path: " + filepath.Join(real, "pyproject.toml") + "\n",
		"project_root = " + real + "\n",
		"src = [\n\t" + real + ",\n\t" + filepath.Join(real, "src") + ",\n\t" + filepath.Join(real, "lib") + ",\n]\n",
		"extend_exclude = [\n\tlegacy,\n]\n",
		"respect_gitignore = true\n",
		"\tTL001 (syntax-error),\n\tTL002 (io-error),\n\tTL101 (loss-accumulated-with-graph),\n",
		"\tTL203 (prefer-inference-mode),\n",
		"\tTL403 (torch-load-without-map-location),\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--show-settings lacks %q:\n%s", want, out)
		}
	}
	for _, absent := range []string{"TL104", "TL201", "TL900"} {
		if strings.Contains(out, absent) {
			t.Errorf("--show-settings lists %s, which the configuration leaves out:\n%s", absent, out)
		}
	}
	// A file under a per-file ignore: its own rules.
	_, out, _ = runIn(t, dir, "check", "--show-settings", "tests/a_test.py")
	if !strings.Contains(out, "Resolved settings for: tests/a_test.py\n") || strings.Contains(out, "TL403") {
		t.Errorf("per-file ignores not applied:\n%s", out)
	}
	_, out, _ = runIn(t, dir, "check", "--show-settings", "--isolated", "--no-respect-gitignore", ".")
	if !strings.Contains(out, "Settings path: none (the defaults)\n") || !strings.Contains(out, "respect_gitignore = false\n") || !strings.Contains(out, "TL201") {
		t.Errorf("--isolated:\n%s", out)
	}
}

func TestShowFlagsRejected(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"--show-files", "--show-settings"}, {"--show-files", "-"}, {"--show-settings", "--fix"}} {
		code, _, stderr := runIn(t, dir, append([]string{"check"}, args...)...)
		if code != 2 || !strings.Contains(stderr, "--show-") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	code, _, stderr := runIn(t, dir, "check", "--show-settings", ".")
	if code != 2 || !strings.Contains(stderr, "no Python files") {
		t.Errorf("empty folder: exit %d, stderr %q", code, stderr)
	}
}
