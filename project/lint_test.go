package project

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/testtool"
	"github.com/torchlint/torchlint/rules"
)

const projectsDir = "../testdata/python/projects"

func projectFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			out = append(out, p)
		}
		return err
	})
	sort.Strings(out)
	return out, err
}

// projectSources lists a fixture project's Python files and notebooks,
// as discovery does: the notebooks' calls of the project's functions are
// part of its facts.
func projectSources(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".ipynb")) {
			out = append(out, p)
		}
		return err
	})
	sort.Strings(out)
	return out, err
}

func newLinter(t *testing.T) *Linter {
	t.Helper()
	return newProjectLinter(t, "")
}

// newProjectLinter runs the rules that the pyproject.toml of root
// selects (the default rules where it has no [tool.torchlint] table),
// so that a fixture project can select a preview rule.
func newProjectLinter(t *testing.T, root string) *Linter {
	t.Helper()
	var layers []rules.Selection
	if root != "" {
		s, err := loadConfig(filepath.Join(root, "pyproject.toml"))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if s != nil {
			layers = s.Layers
		}
	}
	enabled, err := rules.ResolveLayers(layers)
	if err != nil {
		t.Fatal(err)
	}
	r := analyzer.NewRunner(enabled, rules.SyntaxError, rules.IOError)
	return &Linter{Runner: r, Files: projectSources}
}

func key(d analyzer.Diagnostic) string {
	return fmt.Sprintf("%s:%d:%d: %s %s", filepath.ToSlash(d.Path), d.Pos.Line, d.Pos.Column, d.Rule.Code, d.Message)
}

func keys(ds []analyzer.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, key(d))
	}
	sort.Strings(out)
	return out
}

// TestProjects lints each project of testdata/python/projects whole and
// file by file: both must give the same findings, and exactly those the
// `# want:` comments expect.
func TestProjects(t *testing.T) {
	entries, err := os.ReadDir(projectsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		root := filepath.Join(projectsDir, e.Name())
		t.Run(e.Name(), func(t *testing.T) {
			files, err := projectFiles(root)
			if err != nil {
				t.Fatal(err)
			}
			whole, errs := newProjectLinter(t, root).Lint(files, nil)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			checkWants(t, files, whole)
			// The fixtures are small enough to be linted before the first
			// solve; the order of a large project must find the same.
			few := fewToParse
			fewToParse = 0
			ordered, errs := newProjectLinter(t, root).Lint(files, nil)
			fewToParse = few
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if w, o := strings.Join(keys(whole), "\n"), strings.Join(keys(ordered), "\n"); w != o {
				t.Errorf("linted in import order after a first solve, findings differ:\nfew:\n%s\nordered:\n%s", w, o)
			}
			var alone []analyzer.Diagnostic
			for _, f := range files {
				d, errs := newProjectLinter(t, root).Lint([]string{f}, nil)
				if len(errs) > 0 {
					t.Fatal(errs)
				}
				alone = append(alone, d...)
			}
			if w, a := strings.Join(keys(whole), "\n"), strings.Join(keys(alone), "\n"); w != a {
				t.Errorf("linted file by file, findings differ from the whole project's:\nwhole:\n%s\nalone:\n%s", w, a)
			}
		})
	}
}

func checkWants(t *testing.T, files []string, diags []analyzer.Diagnostic) {
	t.Helper()
	type want struct {
		file string
		testtool.Want
	}
	var wants []want
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ws, _ := testtool.ParseWants(t, f, src)
		for _, w := range ws {
			wants = append(wants, want{f, w})
		}
	}
	used := make([]bool, len(diags))
	for _, w := range wants {
		found := false
		for i, d := range diags {
			if !used[i] && d.Path == w.file && d.Pos.Line == w.Line && d.Rule.Code == w.Code && (w.RE == nil || w.RE.MatchString(d.Message)) {
				if w.Level != "" && d.Confidence().String() != w.Level {
					t.Errorf("%s:%d: %s confidence %s, want %s (assumed %q, once %q)", w.file, w.Line, w.Code, d.Confidence(), w.Level, d.Assumed, d.Once)
				}
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("%s:%d: want %s %v, not reported", w.file, w.Line, w.Code, w.RE)
		}
	}
	for i, d := range diags {
		if !used[i] {
			t.Errorf("unexpected %s", key(d))
		}
	}
}

// TestFindRoot: the closest pyproject.toml that configures torchlint
// wins over a closer one that does not, however the table is written.
func TestFindRoot(t *testing.T) {
	for name, outer := range map[string]string{
		"table":      "[tool.torchlint]\nselect = [\"TL1\"]\n",
		"dotted key": "[tool]\ntorchlint.select = [\"TL1\"]\n",
	} {
		dir := t.TempDir()
		writeFile := func(p, text string) {
			t.Helper()
			p = filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		writeFile("pyproject.toml", outer)
		writeFile("sub/pyproject.toml", "[project]\nname = \"sub\"\n")
		writeFile("sub/train.py", "import torch\n")
		if got := FindRoot(filepath.Join(dir, "sub", "train.py")); got != dir {
			t.Errorf("%s: FindRoot = %s, want %s", name, got, dir)
		}
	}
}

// TestRootOfUnmarkedFolders: without a configured pyproject.toml above
// it, the closest marker (a pyproject.toml, setup.py, setup.cfg or .git)
// is a file's root; without any, the outermost named folder holding it,
// else its own folder, never the working directory. Under such a root,
// the packages its scripts can import belong to the project, no other
// folder.
func TestRootOfUnmarkedFolders(t *testing.T) {
	dir := t.TempDir()
	for p, text := range map[string]string{
		"pyproject.toml":        "[project]\nname = \"outer\"\n",
		"vendor/lib/.git/HEAD":  "ref: refs/heads/main\n",
		"vendor/lib/lib/ops.py": "import torch\n",
		"unmarked/a/b/run.py":   "import torch\nfrom pkg.sub import net\n",
		// A package two deep, which run.py can import, beside a folder
		// that is no package and a package inside it.
		"unmarked/a/b/pkg/__init__.py":     "",
		"unmarked/a/b/pkg/sub/__init__.py": "",
		"unmarked/a/b/pkg/sub/net.py":      "import torch\n",
		"unmarked/a/b/pkg/ns/ops.py":       "import torch\n", // ns has no __init__.py: a namespace portion
		// A repository whose own root is a package, in a folder of others.
		"unmarked/c/__init__.py":                 "",
		"unmarked/c/train.py":                    "import torch\nfrom model.rvae import RVAE\n",
		"unmarked/score.py":                      "import json\n", // beside the repositories, importing none
		"unmarked/c/model/__init__.py":           "",
		"unmarked/c/model/rvae.py":               "import torch\n",
		"unmarked/a/b/scripts/tool.py":           "import torch\n",
		"unmarked/a/b/scripts/inner/__init__.py": "",
		"unmarked/a/b/scripts/inner/mod.py":      "import torch\n",
	} {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := FindRoot(filepath.Join(dir, "vendor", "lib", "lib", "ops.py")), filepath.Join(dir, "vendor", "lib"); got != want {
		t.Errorf("under a nested git repository: FindRoot = %s, want %s", got, want)
	}
	if err := os.Remove(filepath.Join(dir, "pyproject.toml")); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "unmarked", "a", "b", "run.py")
	t.Chdir(dir)
	if got, want := FindRoot(run), filepath.Dir(run); got != want {
		t.Errorf("FindRoot = %s, want the file's folder %s", got, want)
	}
	l := &Linter{Named: []string{filepath.Join(dir, "unmarked", "a"), filepath.Join(dir, "unmarked")}}
	if got, want := l.root(run), filepath.Join(dir, "unmarked"); got != want {
		t.Errorf("with named folders: root = %s, want the outermost %s", got, want)
	}
	b := filepath.Dir(run)
	net := filepath.Join(b, "pkg", "sub", "net.py")
	if got, want := FindRoot(net), filepath.Dir(net); got != want {
		t.Errorf("in a package: FindRoot = %s, want the file's folder %s", got, want)
	}
	pkg := filepath.Join(b, "pkg")
	l = &Linter{Named: []string{pkg}}
	if got := l.root(net); got != pkg {
		t.Errorf("in a named package: root = %s, want the named folder %s, never one above", got, pkg)
	}
	// Named alone, a file of a package has the root of the scripts that
	// import the package; a file of a folder that is no package, its own.
	l = &Linter{Named: []string{net}}
	if got := l.root(net); got != b {
		t.Errorf("a package's file named alone: root = %s, want the folder holding the package, %s", got, b)
	}
	ops := filepath.Join(b, "pkg", "ns", "ops.py")
	if got := (&Linter{Named: []string{ops}}).root(ops); got != b {
		t.Errorf("a file of a package's namespace portion named alone: root = %s, want %s", got, b)
	}
	if !(&Linter{}).belongs(ops, b) {
		t.Errorf("%s should belong to the unmarked root %s, as pkg.ns.ops", ops, b)
	}
	c := filepath.Join(dir, "unmarked", "c")
	if rvae := filepath.Join(c, "model", "rvae.py"); (&Linter{Named: []string{rvae}}).root(rvae) != c {
		t.Errorf("a file of a repository that is a package: root = %s, want the repository %s, not the folder of projects above",
			(&Linter{Named: []string{rvae}}).root(rvae), c)
	}
	tool := filepath.Join(b, "scripts", "tool.py")
	if got, want := (&Linter{Named: []string{tool}}).root(tool), filepath.Dir(tool); got != want {
		t.Errorf("a script named alone: root = %s, want its folder %s", got, want)
	}
	l = &Linter{}
	if !l.belongs(run, b) || !l.belongs(net, b) {
		t.Errorf("run.py and the package it can import do not belong to the project in %s", b)
	}
	for _, p := range []string{filepath.Join(b, "scripts", "tool.py"), filepath.Join(b, "scripts", "inner", "mod.py")} {
		if l.belongs(p, b) {
			t.Errorf("%s, in a folder that is no package, belongs to the project in %s", p, b)
		}
	}
	if ops := filepath.Join(dir, "vendor", "lib", "lib", "ops.py"); l.belongs(ops, dir) {
		t.Errorf("%s, under its own marker, belongs to the unmarked project in %s", ops, dir)
	}
}

// fileWriter returns a function that writes a file of dir and returns
// its path.
func fileWriter(t *testing.T, dir string) func(name, text string) string {
	return func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// TestLintAhead: a file linted ahead, with the facts its project had at
// its last lint, gets Lint's findings for an edit that changes no answer
// of the rest of the project, including those that come from another
// file's facts; before the project's first lint there are no facts to
// lint ahead with.
func TestLintAhead(t *testing.T) {
	dir := t.TempDir()
	write := fileWriter(t, dir)
	write("pyproject.toml", "[project]\nname = \"ahead\"\n")
	write("helpers.py", "import torch\n\n\ndef release():\n    torch.cuda.empty_cache()\n")
	train := write("train.py", "from helpers import release\n\n\ndef fit(model, loader, opt):\n    for x in loader:\n        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n")
	l := newLinter(t)
	l.Store, l.Ahead = NewMemoryStore(), true
	edited := []byte("from helpers import release\n\n\ndef fit(model, loader, opt):\n    for x in loader:\n        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n        release()\n")
	if _, ok, err := l.LintAhead(train, edited); ok || err != nil {
		t.Fatalf("LintAhead before any lint: ok=%v err=%v", ok, err)
	}
	if _, errs := l.Lint([]string{train}, nil); len(errs) > 0 {
		t.Fatal(errs)
	}
	ahead, ok, err := l.LintAhead(train, edited)
	if !ok || err != nil {
		t.Fatalf("LintAhead after a lint: ok=%v err=%v", ok, err)
	}
	want, errs := l.Lint([]string{train}, map[string][]byte{train: edited})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := keys(ahead)
	if strings.Join(got, "\n") != strings.Join(keys(want), "\n") || !strings.Contains(strings.Join(got, "\n"), "TL301") {
		t.Errorf("ahead:\n%s\nproject lint:\n%s", strings.Join(got, "\n"), strings.Join(keys(want), "\n"))
	}
}

// TestReplayFacts: an edited file's questions get the answers its last
// version got; a question it did not ask is missed, and recorded with an
// answer that no solved project gives, so that the file is linted again.
func TestReplayFacts(t *testing.T) {
	classifier := &analyzer.Object{Kind: analyzer.ObjectClass, Module: true, Site: analyzer.Site{Path: "nets.py", Line: 3, Text: "Classifier"}}
	was := map[string]string{
		"L1 nets.Classifier": answerKey(classifier),
		"Hnumpy":             "",
		"Sx":                 "pkg.x",
	}
	r := &replayFacts{was: analyzer.PairsOf(was)}
	r.UseSummary(&analyzer.Summary{Stars: []string{".pkg"}})
	if o := r.Lookup("nets.Classifier", analyzer.WantModule); o == nil || !o.Module || o.Site != classifier.Site {
		t.Errorf("nets.Classifier: %+v, want %+v", o, classifier)
	}
	if o := r.Lookup("numpy.zeros", analyzer.WantReturns); o != nil {
		t.Errorf("numpy.zeros: %+v, want none", o)
	}
	if got := r.Star("x"); got != "pkg.x" {
		t.Errorf("star-imported x: %q", got)
	}
	if r.missed || !maps.Equal(r.Asked, was) {
		t.Errorf("the questions asked before: missed %v, recorded %v", r.missed, r.Asked)
	}
	if o := r.Lookup("nets.Classifier", analyzer.WantModule|analyzer.WantGrad); o != nil || !r.missed {
		t.Errorf("a question not asked before: %+v, missed %v", o, r.missed)
	}
	g := NewGraph("/p", nil)
	g.Add("/p/nets.py", &analyzer.Summary{})
	g.Solve()
	missed := map[string]string{"L" + strconv.Itoa(int(analyzer.WantModule|analyzer.WantGrad)) + " nets.Classifier": missedAnswer}
	want := maps.Clone(was)
	maps.Copy(want, missed)
	if !maps.Equal(r.Asked, want) {
		t.Errorf("recorded %v, want %v", r.Asked, want)
	}
	if !g.Facts("/p/train.py").Stale(analyzer.PairsOf(missed)) {
		t.Error("a missed question does not make the file stale")
	}
}

// TestMemoryStoreStat: the language server's store serves a file whose
// stat vouches that it is unchanged without reading it, as the cache
// does, and reads it again once its stat changes.
func TestMemoryStoreStat(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, at time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old := time.Now().Add(-time.Hour)
	write("pyproject.toml", "[project]\nname = \"stat\"\n", old)
	// Two helpers of the same size: one empties the cache, one does not.
	emptying := "import torch\n\n\ndef release():\n    torch.cuda.empty_cache()\n"
	harmless := "import torch\n\n\ndef release():\n    torch.cuda.synchronize()\n"
	if len(emptying) != len(harmless) {
		t.Fatal("the two helpers must have the same size")
	}
	helpers := write("helpers.py", emptying, old)
	train := write("train.py", "from helpers import release\n\n\ndef fit(model, loader, opt):\n    for x in loader:\n        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n        release()\n", old)
	l := newLinter(t)
	l.Store = NewMemoryStore()
	lint := func() string {
		t.Helper()
		d, errs := l.Lint([]string{train}, nil)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return strings.Join(keys(d), "\n")
	}
	first := lint()
	if !strings.Contains(first, "TL301") {
		t.Fatalf("the helper's empty_cache() in the loop is not reported:\n%s", first)
	}
	// Same size, same modification time: the stat vouches for the old
	// contents, and the store's entry is served.
	write("helpers.py", harmless, old)
	if got := lint(); got != first {
		t.Errorf("with an unchanged stat the file was read again:\n%s\nwant:\n%s", got, first)
	}
	// A new modification time: the file is read, and its facts change.
	at := old.Add(time.Minute)
	if err := os.Chtimes(helpers, at, at); err != nil {
		t.Fatal(err)
	}
	if got := lint(); strings.Contains(got, "TL301") {
		t.Errorf("after the helper changed, still:\n%s", got)
	}
}

// TestNotebooksSideBySide: the notebooks of a project, linted side by
// side and asking the project about its helpers, give each the findings
// it gets alone, in the order of their paths.
func TestNotebooksSideBySide(t *testing.T) {
	dir := t.TempDir()
	write := fileWriter(t, dir)
	write("pyproject.toml", "[project]\nname = \"side\"\n")
	write("helpers.py", "import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 2)\n\n    def forward(self, x):\n        return self.fc(x)\n")
	cell := func(src string) string {
		b, err := json.Marshal(map[string]any{
			"cells":    []any{map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil, "source": src}},
			"metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5,
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var paths []string
	for i := range 8 {
		src := "import torch\nfrom helpers import Net\n\nnet = Net()\nnet.eval()\nfor x in torch.load(\"data.pt\", map_location=\"cpu\"):\n    print(net(x).argmax(-1).tolist())\n"
		if i%2 == 1 {
			src = "import torch\n\nwith torch.no_grad():\n    print(1)\n"
		}
		paths = append(paths, write(fmt.Sprintf("nb%d.ipynb", i), cell(src)))
	}
	// With the summaries of the project's files stored, the project is
	// solved only when a notebook first asks it something.
	l := newLinter(t)
	l.Store = NewMemoryStore()
	if _, errs := l.Lint([]string{filepath.Join(dir, "helpers.py")}, nil); len(errs) > 0 {
		t.Fatal(errs)
	}
	all, errs := l.Lint(paths, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var alone []analyzer.Diagnostic
	for _, p := range paths {
		d, errs := newLinter(t).Lint([]string{p}, nil)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		alone = append(alone, d...)
	}
	if len(all) != 4 {
		t.Errorf("%d findings, want one in each of the four notebooks that run the project's model under eval:\n%s", len(all), strings.Join(keys(all), "\n"))
	}
	for i := range all {
		if i >= len(alone) || key(all[i]) != key(alone[i]) {
			t.Fatalf("side by side:\n%s\none at a time:\n%s", strings.Join(unsorted(all), "\n"), strings.Join(unsorted(alone), "\n"))
		}
	}
}

func unsorted(ds []analyzer.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, key(d))
	}
	return out
}

// TestOpenNotebookSummarized: a notebook whose text an editor gives is
// read by its code cells, as on disk: its loop over a module's function
// makes that function's pass repeated while the buffer is open.
func TestOpenNotebookSummarized(t *testing.T) {
	dir := t.TempDir()
	write := fileWriter(t, dir)
	write("pyproject.toml", "[project]\nname = \"open\"\n")
	agents := write("agents.py", "import torch\n\n\ndef act(actor, s):\n    return int(actor(torch.as_tensor(s)).argmax())\n")
	cell := func(src string) []byte {
		b, err := json.Marshal(map[string]any{
			"cells":    []any{map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil, "source": src}},
			"metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5,
		})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	nb := write("play.ipynb", string(cell("import torch\n")))
	buffer := cell("import torch\nfrom agents import act\nactor = torch.nn.Linear(4, 2)\nfor _ in range(500):\n    print(act(actor, env.reset()))\n")
	diags, errs := newLinter(t).Lint([]string{agents}, map[string][]byte{nb: buffer})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(diags) != 1 || diags[0].Rule.Code != "TL201" || diags[0].Confidence() != analyzer.ConfidenceHigh {
		t.Errorf("with the notebook's buffer open: %q (%v), want one TL201 of high confidence in agents.py", keys(diags), confidences(diags))
	}
}

func confidences(ds []analyzer.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Confidence().String())
	}
	return out
}
