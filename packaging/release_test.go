package packaging

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"debug/pe"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/torchlint/torchlint/internal/testtool"
)

// The release tests check GoReleaser's output (`goreleaser release
// --snapshot --clean`, run by ./scripts/test) as users will get it. They
// run only when TORCHLINT_RELEASE_DIST names that output folder, since
// building the cross targets is slow and needs the cross compilers.

// artifact is an entry of GoReleaser's dist/artifacts.json.
type artifact struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Goos   string `json:"goos"`
	Goarch string `json:"goarch"`
	Type   string `json:"type"`
}

type releaseDist struct {
	dir       string
	artifacts []artifact
	meta      struct {
		Version string `json:"version"`
		Commit  string `json:"commit"`
	}
}

// needDist returns the GoReleaser output named by TORCHLINT_RELEASE_DIST,
// or skips the test.
func needDist(t *testing.T) *releaseDist {
	t.Helper()
	dir := os.Getenv("TORCHLINT_RELEASE_DIST")
	if dir == "" {
		t.Skip("set TORCHLINT_RELEASE_DIST to GoReleaser's output folder (./scripts/test does)")
	}
	d := &releaseDist{dir: dir}
	data, err := os.ReadFile(filepath.Join(dir, "artifacts.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &d.artifacts); err != nil {
		t.Fatal(err)
	}
	data, err = os.ReadFile(filepath.Join(dir, "metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &d.meta); err != nil {
		t.Fatal(err)
	}
	return d
}

// path resolves an artifact's path, which GoReleaser writes relative to
// the folder it ran in (the repository root).
func (d *releaseDist) path(a artifact) string {
	if filepath.IsAbs(a.Path) {
		return a.Path
	}
	return filepath.Join(filepath.Dir(d.dir), a.Path)
}

// binary returns the path of the binary built for goos/goarch.
func (d *releaseDist) binary(t *testing.T, goos, goarch string) string {
	t.Helper()
	for _, a := range d.artifacts {
		if a.Type == "Binary" && a.Goos == goos && a.Goarch == goarch {
			return d.path(a)
		}
	}
	t.Fatalf("no %s/%s binary in %s/artifacts.json", goos, goarch, d.dir)
	return ""
}

// exampleDir returns a fresh copy of the bundled examples/ folder inside a
// new temporary folder, which it returns.
func exampleDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(repoRoot(t), "examples")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "examples"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "examples", e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// checkArgs lint the example the way the README's "Try it" does, in a
// format that is easy to compare.
var checkArgs = []string{"check", "--color", "never", "--output-format", "concise", "examples"}

// run runs a command in dir and returns its standard output (with
// Windows line ends made Unix ones) and exit code.
func run(t *testing.T, dir string, env []string, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := testtool.ExitCode(t, cmd.Run(), fmt.Sprintf("%s %v", name, args))
	if stderr.Len() > 0 {
		t.Logf("%s %v: stderr:\n%s", name, args, stderr.String())
	}
	return strings.ReplaceAll(stdout.String(), "\r\n", "\n"), code
}

var (
	nativeOnce sync.Once
	nativeOut  string
	nativeErr  error
)

// nativeFindings lints the example with torchlint built from this checkout
// for this machine, and checks that it gives exactly the three findings
// the README promises.
func nativeFindings(t *testing.T) string {
	t.Helper()
	nativeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "torchlint-native")
		if err != nil {
			nativeErr = err
			return
		}
		defer func() { _ = os.RemoveAll(dir) }()
		bin := filepath.Join(dir, "torchlint")
		build := exec.Command("go", "build", "-o", bin, "./cmd/torchlint")
		build.Dir = repoRoot(t)
		if out, err := build.CombinedOutput(); err != nil {
			nativeErr = errors.New("go build: " + err.Error() + "\n" + string(out))
			return
		}
		ex := exampleDir(t)
		out, code := run(t, ex, nil, bin, checkArgs...)
		if code != 1 {
			nativeErr = errors.New("native build: exit code is not 1:\n" + out)
		}
		nativeOut = out
	})
	if nativeErr != nil {
		t.Fatal(nativeErr)
	}
	codes := regexp.MustCompile(`(?m)^examples/train\.py:\d+:\d+: (TL\d+) `).FindAllStringSubmatch(nativeOut, -1)
	var got []string
	for _, c := range codes {
		got = append(got, c[1])
	}
	sort.Strings(got)
	if strings.Join(got, " ") != "TL101 TL201 TL301" {
		t.Fatalf("the native build reports %v on examples/, want TL101 TL201 TL301:\n%s", got, nativeOut)
	}
	return nativeOut
}

// sameFindings fails unless a release binary's report equals the native
// build's.
func sameFindings(t *testing.T, what, got string, code int) {
	t.Helper()
	want := nativeFindings(t)
	if code != 1 || got != want {
		t.Errorf("%s: exit %d, report:\n%s\nwant exit 1 and the native build's report:\n%s", what, code, got, want)
	}
}

// isStaticELF reports whether an ELF executable for machine has no
// program interpreter, that is, the kernel runs it without a dynamic
// loader.
func isStaticELF(t *testing.T, path string, machine elf.Machine) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if f.Machine != machine {
		t.Errorf("%s: machine %v, want %v", path, f.Machine, machine)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s has a program interpreter: it is dynamically linked", path)
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("%s needs shared libraries %v", path, libs)
	}
}

// TestReleaseLinuxAmd64 checks the linux/amd64 binary: static by ELF and
// by ldd, and it lints the example from an otherwise empty root (a
// chroot holding only the binary and the example), as on a system with no
// libc at all, giving the native build's findings.
func TestReleaseLinuxAmd64(t *testing.T) {
	d := needDist(t)
	bin := d.binary(t, "linux", "amd64")
	isStaticELF(t, bin, elf.EM_X86_64)

	ldd := needTool(t, "ldd", "", "Debian package libc-bin")
	out, _ := exec.Command(ldd, bin).CombinedOutput()
	if !strings.Contains(string(out), "not a dynamic executable") {
		t.Errorf("ldd %s: %s, want \"not a dynamic executable\"", bin, out)
	}

	chroot := needTool(t, "chroot", "", "Debian package coreutils")
	root := exampleDir(t)
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "torchlint"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	// Root may chroot; anyone else tries an unprivileged user namespace.
	argv := []string{chroot, root, "/torchlint"}
	if os.Geteuid() != 0 {
		unshare := needTool(t, "unshare", "", "Debian package util-linux")
		argv = append([]string{unshare, "--user", "--map-root-user"}, argv...)
	}
	got, code := run(t, root, []string{}, argv[0], append(argv[1:], checkArgs...)...)
	sameFindings(t, "linux/amd64 in an empty root", got, code)

	entries, _ := os.ReadDir(root)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	t.Logf("the root held %v", names)
}

// TestReleaseLinuxArm64 runs the linux/arm64 binary under qemu-user.
func TestReleaseLinuxArm64(t *testing.T) {
	d := needDist(t)
	bin := d.binary(t, "linux", "arm64")
	isStaticELF(t, bin, elf.EM_AARCH64)
	qemu := needTool(t, "qemu-aarch64-static", "", "Debian package qemu-user-static")
	got, code := run(t, exampleDir(t), nil, qemu, append([]string{bin}, checkArgs...)...)
	sameFindings(t, "linux/arm64 under qemu-aarch64-static", got, code)
}

// windowsDLLs are the DLLs every Windows has; the binary must need no
// other (MinGW-w64's runtime is linked in statically).
var windowsDLLs = map[string]bool{"kernel32.dll": true, "msvcrt.dll": true, "advapi32.dll": true, "ws2_32.dll": true, "winmm.dll": true, "ntdll.dll": true, "user32.dll": true, "bcrypt.dll": true}

// TestReleaseWindowsAmd64 runs the windows/amd64 binary under Wine, in a
// fresh Wine prefix.
func TestReleaseWindowsAmd64(t *testing.T) {
	d := needDist(t)
	bin := d.binary(t, "windows", "amd64")
	f, err := pe.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		t.Errorf("%s: machine %#x, want AMD64", bin, f.Machine)
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range libs {
		if !windowsDLLs[strings.ToLower(l)] {
			t.Errorf("%s needs %s, which Windows does not ship", bin, l)
		}
	}
	_ = f.Close()

	wine := os.Getenv("TORCHLINT_WINE")
	if wine == "" {
		wine = "/usr/lib/wine/wine64" // Debian's wine64, for 64-bit programs without wine32
		if _, err := os.Stat(wine); err != nil {
			wine = needTool(t, "wine64", "", "Debian packages wine and wine64")
		}
	}
	prefix := t.TempDir()
	env := append(os.Environ(), "WINEPREFIX="+prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml=")
	start := time.Now()
	boot := exec.Command(wine, "wineboot", "--init")
	boot.Env = env
	if out, err := boot.CombinedOutput(); err != nil {
		t.Fatalf("wineboot --init: %v\n%s", err, out)
	}
	defer func() {
		// Stop this prefix's wineserver, which outlives the programs.
		kill := exec.Command(wine+"server", "--kill")
		kill.Env = env
		_ = kill.Run()
	}()
	t.Logf("Wine prefix ready in %v", time.Since(start).Round(time.Millisecond))
	system32 := filepath.Join(prefix, "drive_c", "windows", "system32")
	if _, err := os.Stat(filepath.Join(system32, "bcryptprimitives.dll")); err != nil {
		// Go's runtime needs ProcessPrng from bcryptprimitives.dll; this Wine lacks it.
		cc := needTool(t, "x86_64-w64-mingw32-gcc", "", "Debian package gcc-mingw-w64-x86-64")
		src := filepath.Join(repoRoot(t), "packaging", "testdata", "bcryptprimitives.c")
		if out, err := exec.Command(cc, "-shared", "-O2", "-o", filepath.Join(system32, "bcryptprimitives.dll"), src, "-ladvapi32").CombinedOutput(); err != nil {
			t.Fatalf("building bcryptprimitives.dll: %v\n%s", err, out)
		}
		t.Log("this Wine has no bcryptprimitives.dll: using packaging/testdata/bcryptprimitives.c")
	}
	got, code := run(t, exampleDir(t), env, wine, append([]string{bin}, checkArgs...)...)
	sameFindings(t, "windows/amd64 under Wine", got, code)
}

// TestReleaseVersion checks that the binaries carry the release version,
// commit and commit date.
func TestReleaseVersion(t *testing.T) {
	d := needDist(t)
	if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(d.meta.Commit) {
		t.Fatalf("metadata.json: commit %q; GoReleaser found no git information", d.meta.Commit)
	}
	date, err := exec.Command("git", "-C", repoRoot(t), "log", "-1", "--format=%cI", d.meta.Commit).Output()
	if err != nil {
		t.Fatal(err)
	}
	day, err := time.Parse(time.RFC3339, strings.TrimSpace(string(date)))
	if err != nil {
		t.Fatal(err)
	}
	out, code := run(t, t.TempDir(), nil, d.binary(t, "linux", "amd64"), "--version")
	m := regexp.MustCompile(`^torchlint v(\S+)\+([0-9a-f]{7,40})\.(\d{4}-\d\d-\d\d)\n$`).FindStringSubmatch(out)
	if code != 0 || m == nil || m[1] != d.meta.Version || !strings.HasPrefix(d.meta.Commit, m[2]) || m[3] != day.UTC().Format("2006-01-02") {
		t.Errorf("--version: %q (exit %d), want torchlint v%s+<commit %s>.%s", out, code, d.meta.Version, d.meta.Commit, day.UTC().Format("2006-01-02"))
	}
}

// TestReleaseArchives checks checksums.txt against the archives, and that
// each archive holds its target's binary and the README.
func TestReleaseArchives(t *testing.T) {
	d := needDist(t)
	f, err := os.Open(filepath.Join(d.dir, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			t.Fatalf("checksums.txt: bad line %q", sc.Text())
		}
		sums[fields[1]] = fields[0]
	}
	want := map[string]string{ // archive name suffix -> binary name
		"_linux_amd64.tar.gz": "torchlint",
		"_linux_arm64.tar.gz": "torchlint",
		"_windows_amd64.zip":  "torchlint.exe",
	}
	archives := 0
	for _, a := range d.artifacts {
		if a.Type != "Archive" {
			continue
		}
		archives++
		data, err := os.ReadFile(d.path(a))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(data)
		if sums[a.Name] != hex.EncodeToString(h[:]) {
			t.Errorf("checksums.txt: %s has %q, want %x", a.Name, sums[a.Name], h)
		}
		delete(sums, a.Name)
		prefix := "torchlint_" + d.meta.Version
		suffix := strings.TrimPrefix(a.Name, prefix)
		exe, ok := want[suffix]
		if !ok {
			t.Errorf("unexpected archive %s", a.Name)
			continue
		}
		files := archiveFiles(t, a.Name, data)
		bin := d.binary(t, a.Goos, a.Goarch)
		binData, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(files[exe], binData) {
			t.Errorf("%s: %q is not the %s/%s binary", a.Name, exe, a.Goos, a.Goarch)
		}
		if len(files["README.md"]) == 0 || len(files["LICENSE"]) == 0 || len(files["docs/rules/TL101.md"]) == 0 {
			t.Errorf("%s lacks the README, the LICENSE or the rule docs", a.Name)
		}
	}
	if archives != 3 {
		t.Errorf("%d archives, want linux/amd64, linux/arm64 and windows/amd64", archives)
	}
	for name := range sums {
		t.Errorf("checksums.txt lists %s, which is not an archive", name)
	}
}

// archiveFiles returns the regular files of a .tar.gz or .zip archive.
func archiveFiles(t *testing.T, name string, data []byte) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	if strings.HasSuffix(name, ".zip") {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rc)
			_ = rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			files[f.Name] = b
		}
		return files
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if (h.Name == "torchlint" || h.Name == "torchlint.exe") && h.FileInfo().Mode()&0o111 == 0 {
			t.Errorf("%s: torchlint is not executable", name)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name] = b
	}
	return files
}
