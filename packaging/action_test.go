package packaging

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/torchlint/torchlint/internal/testtool"
)

// actionScript returns the bash script of the action.yml step with this
// name.
func actionScript(t *testing.T, step string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range testtool.ActionScripts(string(data)) {
		if sc.Step == step {
			return sc.Body
		}
	}
	t.Fatalf("action.yml has no step %q with a run script", step)
	return ""
}

// runStep runs a step's script as GitHub's `shell: bash` does (bash
// --noprofile --norc -eo pipefail) with env, and returns its exit code,
// its output and the outputs it wrote to $GITHUB_OUTPUT.
func runStep(t *testing.T, script string, env map[string]string) (int, string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "step.sh")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	output := filepath.Join(dir, "github_output")
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", file)
	cmd.Env = append(os.Environ(), "GITHUB_OUTPUT="+output, "RUNNER_TEMP="+dir, "no_proxy=127.0.0.1,localhost", "NO_PROXY=127.0.0.1,localhost")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	code := testtool.ExitCode(t, err, file)
	outputs := map[string]string{}
	data, _ := os.ReadFile(output)
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outputs[k] = v
		}
	}
	return code, string(out), outputs
}

// TestActionDownload runs the action's release lookup and download
// scripts against a local server that serves GoReleaser's output the way
// GitHub serves a release: the latest release is found, the archive for
// the runner is downloaded, checked against checksums.txt and unpacked,
// and lints the example; a corrupted archive fails the step; a version
// without an archive falls back to building from source.
func TestActionDownload(t *testing.T) {
	d := needDist(t)
	needTool(t, "curl", "", "Debian package curl")
	needTool(t, "unzip", "", "Debian package unzip")
	tag := "v" + d.meta.Version
	var corrupt atomic.Bool
	var apiCalls atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/api/repos/torchlint/torchlint/releases/latest", func(w http.ResponseWriter, r *http.Request) {
		apiCalls.Add(1)
		if r.Header.Get("Authorization") != "Bearer test-token" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 1, "tag_name": tag, "name": "torchlint " + tag})
	})
	mux.HandleFunc("/torchlint/torchlint/releases/download/", func(w http.ResponseWriter, r *http.Request) {
		rest := strings.TrimPrefix(r.URL.Path, "/torchlint/torchlint/releases/download/")
		version, name, _ := strings.Cut(rest, "/")
		if version != tag || strings.Contains(name, "/") {
			http.NotFound(w, r)
			return
		}
		data, err := os.ReadFile(filepath.Join(d.dir, name))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if corrupt.Load() && name != "checksums.txt" {
			data[len(data)/2] ^= 0xff
		}
		_, _ = w.Write(data)
	})
	server := httptest.NewServer(mux)
	defer server.Close()

	find := actionScript(t, "Find the torchlint release")
	download := actionScript(t, "Download torchlint")
	toolCache := t.TempDir()
	findEnv := map[string]string{
		"TORCHLINT_VERSION": "", "ACTION_REF": "main", "ACTION_REPOSITORY": "torchlint/torchlint", "GH_TOKEN": "test-token",
		"GITHUB_API_URL": server.URL + "/api", "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "RUNNER_TOOL_CACHE": toolCache,
	}

	// The action at a branch: the latest release.
	code, out, rel := runStep(t, find, findEnv)
	dir := filepath.Join(toolCache, "torchlint", tag, "linux-amd64")
	if code != 0 || rel["version"] != tag || rel["os"] != "linux" || rel["arch"] != "amd64" || rel["dir"] != dir || rel["bin"] != filepath.Join(dir, "torchlint") {
		t.Fatalf("Find the torchlint release: exit %d, outputs %v\n%s", code, rel, out)
	}
	// The action at a release tag: that release, without asking the API.
	calls := apiCalls.Load()
	findEnv["ACTION_REF"] = "v1.2.3"
	if code, out, o := runStep(t, find, findEnv); code != 0 || o["version"] != "v1.2.3" || apiCalls.Load() != calls {
		t.Errorf("at tag v1.2.3: exit %d, outputs %v\n%s", code, o, out)
	}
	// No release to find: build from source.
	findEnv["ACTION_REF"], findEnv["GITHUB_API_URL"] = "main", server.URL+"/nothing"
	if code, out, o := runStep(t, find, findEnv); code != 0 || o["version"] != "source" {
		t.Errorf("with no release: exit %d, outputs %v\n%s", code, o, out)
	}
	// Windows on x64.
	findEnv["TORCHLINT_VERSION"], findEnv["RUNNER_OS"] = tag, "Windows"
	if code, out, o := runStep(t, find, findEnv); code != 0 || o["os"] != "windows" || !strings.HasSuffix(o["bin"], "torchlint.exe") {
		t.Errorf("on Windows: exit %d, outputs %v\n%s", code, o, out)
	}

	dlEnv := map[string]string{"VERSION": tag, "OS": "linux", "ARCH": "amd64", "DIR": dir, "DOWNLOAD_URL": server.URL + "/torchlint/torchlint/releases/download"}
	corrupt.Store(true)
	code, out, o := runStep(t, download, dlEnv)
	if code == 0 || !strings.Contains(out, "does not match the release's checksums.txt") {
		t.Errorf("a corrupted archive: exit %d, outputs %v\n%s", code, o, out)
	}
	if _, err := os.Stat(rel["bin"]); err == nil {
		t.Errorf("a corrupted archive was unpacked")
	}
	corrupt.Store(false)
	code, out, o = runStep(t, download, dlEnv)
	if code != 0 || o["found"] != "true" {
		t.Fatalf("Download torchlint: exit %d, outputs %v\n%s", code, o, out)
	}
	got, exit := run(t, exampleDir(t), nil, rel["bin"], checkArgs...)
	sameFindings(t, "the binary the action downloaded", got, exit)

	winDir := filepath.Join(t.TempDir(), "windows-amd64")
	code, out, o = runStep(t, download, map[string]string{"VERSION": tag, "OS": "windows", "ARCH": "amd64", "DIR": winDir, "DOWNLOAD_URL": dlEnv["DOWNLOAD_URL"]})
	exe, _ := os.ReadFile(filepath.Join(winDir, "torchlint.exe"))
	want, _ := os.ReadFile(d.binary(t, "windows", "amd64"))
	if code != 0 || o["found"] != "true" || len(exe) == 0 || !bytes.Equal(exe, want) {
		t.Errorf("the Windows archive: exit %d, outputs %v\n%s", code, o, out)
	}

	// No archive for this platform (or no such version): build from source.
	for _, env := range []map[string]string{
		{"VERSION": tag, "OS": "windows", "ARCH": "arm64"},
		{"VERSION": "v9.9.9", "OS": "linux", "ARCH": "amd64"},
	} {
		env["DIR"], env["DOWNLOAD_URL"] = t.TempDir(), dlEnv["DOWNLOAD_URL"]
		code, out, o = runStep(t, download, env)
		if code != 0 || o["found"] != "false" || !strings.Contains(out, "building torchlint from source") {
			t.Errorf("%v: exit %d, outputs %v, want found=false\n%s", env, code, o, out)
		}
	}
}
