package packaging

import (
	"archive/zip"
	"bytes"
	"debug/elf"
	"debug/pe"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// python returns the Python that builds the wheels and makes the virtual
// environments: $TORCHLINT_PYTHON, else python3. It needs the build,
// hatchling and venv modules (Debian's python3-build, python3-hatchling
// and python3-venv).
func python(t *testing.T) string {
	return needTool(t, "python3", "TORCHLINT_PYTHON", "Debian packages python3-build, python3-hatchling and python3-venv")
}

var (
	wheelsOnce sync.Once
	wheelsDir  string
	wheelsErr  error
)

// builtWheels builds the wheels of the GoReleaser output once, with
// packaging/python/build_wheels.py, and returns their folder.
func builtWheels(t *testing.T, d *releaseDist) string {
	t.Helper()
	py := python(t)
	wheelsOnce.Do(func() {
		wheelsDir, wheelsErr = os.MkdirTemp("", "torchlint-wheels")
		if wheelsErr != nil {
			return
		}
		cmd := exec.Command(py, filepath.Join(repoRoot(t), "packaging", "python", "build_wheels.py"), "--dist", d.dir, "--out", wheelsDir)
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			wheelsErr = errors.New("build_wheels.py: " + err.Error() + "\n" + string(out))
		}
	})
	if wheelsErr != nil {
		t.Fatal(wheelsErr)
	}
	return wheelsDir
}

// wheelFor returns the path of the one wheel whose name contains platform.
func wheelFor(t *testing.T, dir, platform string) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "torchlint-*-py3-none-*"+platform+"*.whl"))
	if len(matches) != 1 {
		t.Fatalf("wheels for %s: %v, want one", platform, matches)
	}
	return matches[0]
}

// TestWheelTags checks each wheel: py3-none-PLATFORM, not pure, and
// holding as its one script the GoReleaser binary of that platform, whose
// machine type is the tag's.
func TestWheelTags(t *testing.T) {
	d := needDist(t)
	dir := builtWheels(t, d)
	cases := []struct {
		platform, goos, goarch, script string
		tags                           []string
	}{
		{"manylinux_2_17_x86_64", "linux", "amd64", "torchlint",
			[]string{"py3-none-manylinux2014_x86_64", "py3-none-manylinux_2_17_x86_64", "py3-none-musllinux_1_1_x86_64"}},
		{"manylinux_2_17_aarch64", "linux", "arm64", "torchlint",
			[]string{"py3-none-manylinux2014_aarch64", "py3-none-manylinux_2_17_aarch64", "py3-none-musllinux_1_1_aarch64"}},
		{"win_amd64", "windows", "amd64", "torchlint.exe", []string{"py3-none-win_amd64"}},
	}
	all, _ := filepath.Glob(filepath.Join(dir, "*.whl"))
	if len(all) != len(cases) {
		t.Errorf("built %d wheels, want %d: %v", len(all), len(cases), all)
	}
	for _, c := range cases {
		path := wheelFor(t, dir, c.platform)
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		var scripts []string
		var script []byte
		var wheelMeta string
		var license []byte
		for _, f := range zr.File {
			if strings.HasSuffix(f.Name, "LICENSE") && strings.Contains(f.Name, ".dist-info/") {
				license = readZip(t, f)
			}
			if strings.Contains(f.Name, ".data/scripts/") {
				scripts = append(scripts, f.Name)
				if f.Mode()&0o111 == 0 {
					t.Errorf("%s: %s is not executable", filepath.Base(path), f.Name)
				}
				script = readZip(t, f)
			}
			if strings.HasSuffix(f.Name, ".dist-info/WHEEL") {
				wheelMeta = string(readZip(t, f))
			}
		}
		_ = zr.Close()
		if !bytes.HasPrefix(license, []byte("MIT License\n")) {
			t.Errorf("%s: no MIT LICENSE in its .dist-info", filepath.Base(path))
		}
		if len(scripts) != 1 || !strings.HasSuffix(scripts[0], ".data/scripts/"+c.script) {
			t.Errorf("%s: scripts %v, want one named %s", filepath.Base(path), scripts, c.script)
			continue
		}
		var tags []string
		for _, line := range strings.Split(wheelMeta, "\n") {
			if tag, ok := strings.CutPrefix(strings.TrimSpace(line), "Tag: "); ok {
				tags = append(tags, tag)
			}
		}
		if strings.Join(tags, " ") != strings.Join(c.tags, " ") || !strings.Contains(wheelMeta, "Root-Is-Purelib: false") {
			t.Errorf("%s: WHEEL:\n%s\nwant tags %v and Root-Is-Purelib: false", filepath.Base(path), wheelMeta, c.tags)
		}
		bin, err := os.ReadFile(d.binary(t, c.goos, c.goarch))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(bin, script) {
			t.Errorf("%s: the script is not GoReleaser's %s/%s binary", filepath.Base(path), c.goos, c.goarch)
		}
		switch c.goos {
		case "linux":
			f, err := elf.NewFile(bytes.NewReader(script))
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[c.goarch]
			if f.Machine != want {
				t.Errorf("%s: the binary is for %v, want %v", filepath.Base(path), f.Machine, want)
			}
		case "windows":
			f, err := pe.NewFile(bytes.NewReader(script))
			if err != nil {
				t.Fatal(err)
			}
			if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
				t.Errorf("%s: the binary is for machine %#x, want AMD64", filepath.Base(path), f.Machine)
			}
		}
	}
}

func readZip(t *testing.T, f *zip.File) []byte {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rc.Close() }()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// venv makes a fresh virtual environment and returns its bin folder.
func venv(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command(python(t), "-m", "venv", dir).CombinedOutput(); err != nil {
		t.Fatalf("python -m venv: %v\n%s", err, out)
	}
	return filepath.Join(dir, "bin")
}

// offlinePip is the environment of a pip that may not reach any index.
func offlinePip() []string {
	return append(os.Environ(), "PIP_NO_INDEX=1", "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_CACHE_DIR=1")
}

// TestWheelInstall installs this machine's wheel with pip into a fresh
// virtual environment, offline, and lints the example with the
// `torchlint` script and with `python -m torchlint`; pip refuses the
// wheel of another architecture, and pip show lists the metadata.
func TestWheelInstall(t *testing.T) {
	d := needDist(t)
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("installs the linux x86_64 wheel")
	}
	dir := builtWheels(t, d)
	bin := venv(t)
	pip := filepath.Join(bin, "pip")

	other := wheelFor(t, dir, "manylinux_2_17_aarch64")
	out, err := cmdIn("", offlinePip(), pip, "install", other).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "is not a supported wheel on this platform") {
		t.Errorf("pip installed the aarch64 wheel on x86_64: %v\n%s", err, out)
	}

	wheel := wheelFor(t, dir, "manylinux_2_17_x86_64")
	if out, err := cmdIn("", offlinePip(), pip, "install", wheel).CombinedOutput(); err != nil {
		t.Fatalf("pip install %s: %v\n%s", filepath.Base(wheel), err, out)
	}

	got, code := run(t, exampleDir(t), nil, filepath.Join(bin, "torchlint"), checkArgs...)
	sameFindings(t, "torchlint installed by pip", got, code)
	got, code = run(t, exampleDir(t), nil, filepath.Join(bin, "python"), append([]string{"-m", "torchlint"}, checkArgs...)...)
	sameFindings(t, "python -m torchlint", got, code)

	show, err := cmdIn("", offlinePip(), pip, "show", "--verbose", "torchlint").CombinedOutput()
	if err != nil {
		t.Fatalf("pip show: %v\n%s", err, show)
	}
	t.Logf("pip show --verbose torchlint:\n%s", show)
	for _, want := range []string{
		"Name: torchlint\n",
		"Version: " + strings.Split(filepath.Base(wheel), "-")[1] + "\n",
		"License: MIT\n",
		"Classifiers:\n  Development Status",
		"  License :: OSI Approved :: MIT License\n",
		"  Operating System :: POSIX :: Linux\n",
		"Project-URLs:\n",
		"  Repository, https://github.com/torchlint/torchlint\n",
		"  Issues, https://github.com/torchlint/torchlint/issues\n",
	} {
		if !strings.Contains(string(show), want) {
			t.Errorf("pip show --verbose torchlint lacks %q", want)
		}
	}
	// pip show does not print Requires-Python; the installed metadata has it.
	meta, err := exec.Command(filepath.Join(bin, "python"), "-c",
		"import importlib.metadata as m; print(m.metadata('torchlint')['Requires-Python'])").Output()
	if err != nil || strings.TrimSpace(string(meta)) != ">=3.8" {
		t.Errorf("Requires-Python: %q, %v; want >=3.8", meta, err)
	}
}

// cmdIn is an *exec.Cmd running in dir (if not empty) with env.
func cmdIn(dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	return cmd
}
