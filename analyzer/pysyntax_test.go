package analyzer

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/torchlint/torchlint/internal/testtool"
)

func TestTokenCheck(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"valid", "if x:\n    y = [1,\n  2]\nelse:\n\ty = 3\n", ""},
		{"blank and comment lines do not indent", "if x:\n\n      # c\n    y = 1\n", ""},
		{"continuation lines are free", "x = 1 + \\\n        2\ny = (\n3)\n", ""},
		{"strings span lines", "s = '''\n  a\n'''\nt = 'a\\\nb'\n", ""},
		{"unexpected indent", "x = 1\n    y = 2\n", "2 IndentationError: unexpected indent"},
		{"a block under a commented-out if", "x = 1\n# if x:\n    y = 2\n", "3 IndentationError: unexpected indent"},
		{"unindent", "if x:\n        a = 1\n    b = 2\n", "3 IndentationError: unindent does not match any outer indentation level"},
		{"no body", "if x:\ny = 1\n", "2 IndentationError: expected an indented block after 'if' statement on line 1"},
		{"no body at the end", "def f():\n", "2 IndentationError: expected an indented block after function definition on line 1"},
		{"async header", "async def f():\nx = 1\n", "2 IndentationError: expected an indented block after function definition on line 1"},
		{"a bare name and colon", "x = 1\ntodo:\ny = 2\n", "2 SyntaxError: invalid syntax"},
		{"tabs against spaces", "if x:\n        a = 1\n\tb = 2\n", "3 TabError: inconsistent use of tabs and spaces in indentation"},
		{"a tab is up to 8 columns", "if x:\n        a = 1\n\tb = 2\n\t\n", "3 TabError: inconsistent use of tabs and spaces in indentation"},
		{"never closed", "x = (1,\n  2\n", "1 SyntaxError: '(' was never closed"},
		{"unmatched", "x = 1)\n", "1 SyntaxError: unmatched ')'"},
		{"mismatched", "x = (1]\n", "1 SyntaxError: closing parenthesis ']' does not match opening parenthesis '('"},
		{"unterminated string", "s = 'abc\n", "1 SyntaxError: unterminated string literal (detected at line 1)"},
		{"unterminated triple", "s = \"\"\"abc\n", "1 SyntaxError: unterminated triple-quoted string literal (detected at line 1)"},
		{"prefixed strings", "s = rb'\\'' + f\"{x}\" + Br'''\n'''\n", ""},
		// f-strings as Python 3.12 reads them (PEP 701): a field may hold
		// strings of the same quote and line breaks.
		{"f-string fields", "s = f\"{d[\"a\"]} {x:>{w}} {{lit}} {x!r:>4} {'{'} {x = }\"\n", ""},
		{"f-string field over lines", "print(f\"epoch {\n    ckpt['epoch']}, best\")\n", ""},
		{"f-string literal line break", "s = f\"{x}\nabc\"\n", "1 SyntaxError: unterminated string literal (detected at line 1)"},
		{"f-string field never closed", "s = f\"{x\n", "1 SyntaxError: f-string: expecting '}'"},
		{"CRLF", "if x:\r\n    y = 1\r\n  z = 2\r\n", "3 IndentationError: unindent does not match any outer indentation level"},
		{"no trailing newline", "if x:\n    y = 1", ""},
		{"NUL", "x = 1\n\x00\n", "1 " + nulMessage},
		// An exercise's blanks: a right-hand side or an argument to fill in.
		{"nothing after =", "def f():\n    value =\n\n    return value\n", "2 SyntaxError: invalid syntax"},
		{"a comment after =", "x = # todo\ny = 1\n", "1 SyntaxError: invalid syntax"},
		{"nothing after += at the end", "x +=", "1 SyntaxError: invalid syntax"},
		{"= in brackets goes on", "f(a=\n  1)\nx = f\"{a=}\" + 'b='\n", ""},
		{"question marks", "m = M(\n    ???\n)\n", "2 SyntaxError: invalid syntax"},
		// A try whose block ends without except or finally: where the
		// next statement starts, or at the end of the last line.
		{"try then a statement", "def g():\n    try:\n        x = 1\n    y = 2\n", "4 SyntaxError: expected 'except' or 'finally' block"},
		{"try then a dedent", "def g():\n    try:\n        x = 1\ny = 2\n", "4 SyntaxError: expected 'except' or 'finally' block"},
		{"try at the end", "try:\n    x = 1\n\n# done\n", "4 SyntaxError: expected 'except' or 'finally' block"},
		{"try then else", "try: x = 1\nelse:\n    pass\n", "2 SyntaxError: expected 'except' or 'finally' block"},
		{"try, comments, except", "try:\n    x = 1\n# c\n\n    # d\nexcept:\n    pass\n", ""},
		{"nested tries", "try:\n    try:\n        x = 1\n    finally:\n        y = 2\nexcept (\n    ValueError):\n    pass\nelse:\n    z = '''\ntry:\n'''\ntry_count = 1\n", ""},
		{"inner try left open", "try:\n    try:\n        x = 1\nexcept:\n    pass\n", "4 SyntaxError: expected 'except' or 'finally' block"},
	}
	for _, c := range cases {
		got := ""
		if e, ok := tokenCheck([]byte(c.src)); ok {
			got = fmt.Sprintf("%d %s", strings.Count(c.src[:e.Start], "\n")+1, e.Message)
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestSyntaxErrorsAgreeWithCPython mutates the repository's Python
// fixtures and a set of snippets (a line indented, dedented, deleted, a
// `todo:` line inserted) and checks, with CPython's compiler as the
// oracle, that a file gets a syntax error exactly when CPython rejects
// it, and at most one.
func TestSyntaxErrorsAgreeWithCPython(t *testing.T) {
	python := testtool.Need(t, "python3", "TORCHLINT_PYTHON", "Debian package python3-minimal")
	sources := map[string]string{}
	root := filepath.Join("..", "testdata")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".py") {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil && utf8.Valid(b) { // other encodings are TL002's
			sources[path] = string(b)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range oracleSnippets {
		sources[fmt.Sprintf("snippet%02d.py", i)] = s
	}
	names := make([]string, 0, len(sources))
	for name := range sources {
		names = append(names, name)
	}
	sort.Strings(names)
	rng := rand.New(rand.NewSource(1))
	dir := t.TempDir()
	files := map[string]string{}
	for _, name := range names {
		for k, m := range mutations(sources[name], rng) {
			files[fmt.Sprintf("%s-%03d.py", strings.NewReplacer("/", "_", ".", "_").Replace(name), k)] = m
		}
	}
	if len(files) < 1000 {
		t.Fatalf("only %d mutated files", len(files))
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	verdicts := cpythonVerdicts(t, python, dir)
	syntax := &Rule{Code: SyntaxErrorCode, Name: "syntax-error"}
	r := NewRunner(nil, syntax, &Rule{Code: IOErrorCode, Name: "io-error"})
	disagree, sameLine, rejected := 0, 0, 0
	for name, src := range files {
		v, ok := verdicts[name]
		if !ok {
			t.Fatalf("no verdict for %s", name)
		}
		var got []Diagnostic
		for _, d := range r.LintSource(name, []byte(src)) {
			if d.Rule == syntax {
				got = append(got, d)
			}
		}
		if len(got) > 1 {
			t.Errorf("%s: %d syntax errors, want at most one", name, len(got))
		}
		if v.line > 0 {
			rejected++
		}
		switch {
		case v.line > 0 && len(got) == 0:
			disagree++
			t.Errorf("%s: CPython rejects it (line %d: %s); no TL001\n%s", name, v.line, v.msg, src)
		case v.line == 0 && len(got) > 0:
			disagree++
			t.Errorf("%s: CPython accepts it; TL001 at line %d: %s\n%s", name, got[0].Pos.Line, got[0].Message, src)
		case v.line > 0 && got[0].Pos.Line == v.line:
			sameLine++
		}
	}
	t.Logf("%d files, %d rejected by CPython, %d disagreements, %d errors on CPython's line", len(files), rejected, disagree, sameLine)
}

// oracleSnippets are small programs whose mutations exercise blocks,
// brackets, strings and continuations.
var oracleSnippets = []string{
	// Errors CPython reports wherever they are, ahead of an earlier
	// syntax error: a character no token may hold, a string left open.
	"def f(:\n    pass\n\n\nscale = 2\u200b\n",
	"def f(:\n    pass\n\n\nlabel = 'unit\n",
	"def f(:\n    pass\n\n\nlabel = \"\"\"unit\n\n",
	"\ufeffimport os\nx = 1 \u20ac 2\n",
	// Blanks left to fill in.
	"def fill(x):\n    value =\n\n    # your code\n\n    return value\n\n\nm = dict(\n    ???\n)\n",
	// Python 2's raise and except, which the grammar accepts.
	"try:\n    f()\nexcept ValueError, e:\n    raise KeyError, 'k'\n",
	"\u03bb = 0.5\ne\u0301 = \u03bb * 2\nnote = '\u200b'  # \u200b\n",
	"a = (1,)\nx = 1, *(a)\ny = *[a], 2\nfor q in 1, *(a):\n    pass\n\n\ndef g(n):\n    return 1, *\"ab\", *(None,) * n\n\n\nz = 2 *(a)\nw = [1, *(a)]\n",
	"a = (1,)\nx = 1\ny = *(a)\n",
	"import torch\n\n\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = torch.nn.Linear(4, 2)\n\n    def forward(self, x):\n        return self.fc(x)\n",
	"def train(model, loader, opt):\n    for x, y in loader:\n        opt.zero_grad()\n        loss = model(x).sum()\n        if loss > 0:\n            loss.backward()\n        else:\n            continue\n        opt.step()\n    return loss\n",
	"try:\n    import torch\nexcept ImportError:\n    torch = None\nfinally:\n    pass\n\nwhile True:\n    break\n",
	"x = [\n    1,\n    2,\n]\ny = {\n    'a': 1,\n}\nz = (x +\n     y)\n",
	"s = \"\"\"\n  a docstring\n    indented\n\"\"\"\nt = 'one' \\\n    'two'\nprint(s, t)\n",
	"with open('f') as f:\n    for line in f:\n        if not line:\n            pass\n        elif line == 'x':\n            print(line)\n",
	"async def main():\n    async with lock:\n        await run()\n    async for x in stream():\n        yield x\n",
	"def outer():\n    def inner():\n        nonlocal count\n        count += 1\n    count = 0\n    inner()\n    return count\n",
	"match command:\n    case 'go':\n        move()\n    case _:\n        stop()\n",
	"if a:\n\tb = 1\n\tif c:\n\t\td = 2\nelse:\n\te = 3\n",
	"@decorator\ndef f(x: int = 1) -> int:\n    \"\"\"Doc.\"\"\"\n    return x if x else -x\n\n\nlambda_ = lambda y: y + 1\n",
	"class A:\n    x: int = 0\n\n    @property\n    def value(self):\n        return self.x\n",
	"class A:\n    x: int = 0\n\n    @property\n# a comment left of its block\n    def value(self):\n        return self.x\n",
	// `or` after a generic annotation, and starred parenthesized tuple
	// elements: Python that tree-sitter's grammar refuses.
	"def f(d: dict[str, int] or None, s: tuple[int, int] or None = None, t=1):\n    return s\n\n\nx: list[int] or None = None\n",
	"pts = [(1, 2)]\nrow = *(pts[0]),\nnext_row = 0\nline = *(pts[0]\n        if pts else ()), 3\n",
	"a = [1]\nb = *(a + [\")\"]),\nc = *(a) + [2], 3\n\n\ndef f():\n    return *(a, \")\"),\n",
	"x: list[int] or None: int = 3\n",
	"def cook(test, (reflen, counts), eff=None):\n    return reflen\n\n\nf = lambda (a, b): a\n",
	"import os\n\n\ndef\ndef evaluate(x):\n    return x\n",
	// Tries nested, one-line and in methods: a line deleted or dedented
	// leaves one without its except or finally.
	"class Loader:\n    def load(self, path):\n        try:\n            f = open(path)\n        except OSError:\n            return None\n        else:\n            try:\n                return f.read()\n            finally:\n                f.close()\n\n\ntry: import torch\nexcept ImportError: torch = None\n",
}

// mutations returns variants of src, each with one line changed: indented
// by four spaces or one, dedented, deleted, or preceded by a `todo:` line.
func mutations(src string, rng *rand.Rand) []string {
	lines := strings.SplitAfter(src, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return nil
	}
	edit := func(i int, repl ...string) string {
		out := append(append(append([]string(nil), lines[:i]...), repl...), lines[i+1:]...)
		return strings.Join(out, "")
	}
	var out []string
	for k := 0; k < 4; k++ {
		i := rng.Intn(len(lines))
		l := lines[i]
		trimmed := strings.TrimLeft(l, " \t")
		indent := l[:len(l)-len(trimmed)]
		out = append(out,
			edit(i, "    "+l),
			edit(i, " "+l),
			edit(i),
			edit(i, indent+"todo:\n", l),
		)
		if indent != "" {
			out = append(out, edit(i, indent[:len(indent)/2]+trimmed), edit(i, trimmed))
		}
	}
	return out
}

// verdict is CPython's judgement of one file: line 0 when it compiles.
type verdict struct {
	line int
	msg  string
}

// cpythonVerdicts compiles every file of dir as `python3 -m py_compile`
// does, in one interpreter, and returns each file's verdict.
func cpythonVerdicts(t *testing.T, python, dir string) map[string]verdict {
	const script = `
import os, sys
d = sys.argv[1]
for name in sorted(os.listdir(d)):
    with open(os.path.join(d, name), 'rb') as f:
        data = f.read()
    try:
        compile(data, name, 'exec', dont_inherit=True)
        print(name, 0, 'ok')
    except (SyntaxError, ValueError) as e:
        line = getattr(e, 'lineno', None) or 1
        print(name, line, type(e).__name__ + ': ' + str(getattr(e, 'msg', e)).replace('\n', ' '))
`
	out, err := exec.Command(python, "-c", script, dir).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	verdicts := map[string]verdict{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), " ", 3)
		if len(parts) != 3 {
			continue
		}
		line, _ := strconv.Atoi(parts[1])
		verdicts[parts[0]] = verdict{line: line, msg: parts[2]}
	}
	return verdicts
}

func TestSyntaxErrorsOnePerFile(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"valid", "def f():\n    for x in y:\n        break\n    else:\n        pass\n    return 1\n", ""},
		{"template", "x = 1\n{% if a %}\ny = 2\n{% endif %}\n{{ z }}\n{% for b in c %}\n", "2 SyntaxError: invalid syntax"},
		{"Python 2 prints", "print 'a'\nprint 'b'\n", "1 SyntaxError: Missing parentheses in call to 'print'"},
		{"async as a keyword argument", "x.cuda(async=True)\n", "1 SyntaxError: invalid syntax (async is a keyword)"},
		{"Python 2 long", "n = 10L\n", "1 SyntaxError: invalid syntax (a Python 2 integer literal)"},
		{"Python 2 octal", "mode = 0755\n", "1 SyntaxError: invalid syntax (a Python 2 integer literal)"},
		{"return at module level", "def f():\n    pass\nreturn 1\n", "3 SyntaxError: 'return' outside function"},
		{"return in a class body", "def f():\n    class A:\n        return 1\n", "3 SyntaxError: 'return' outside function"},
		{"break in a loop's else", "for x in y:\n    pass\nelse:\n    break\n", "4 SyntaxError: 'break' outside loop"},
		{"continue in a nested function", "while 1:\n    def f():\n        continue\n", "3 SyntaxError: 'continue' not properly in loop"},
		{"yield at module level", "yield 1\n", "1 SyntaxError: 'yield' outside function"},
		{"yield in a lambda", "f = lambda: (yield)\n", ""},
		{"nonlocal bound", "def f():\n    n = 0\n    def g():\n        nonlocal n\n", ""},
		{"nonlocal bound by a parameter", "def f(n):\n    def g():\n        nonlocal n\n", ""},
		{"nonlocal unbound", "def f():\n    def g():\n        nonlocal n\n    return n\n", "3 SyntaxError: no binding for nonlocal 'n' found"},
		{"the earlier of a token and a tree error", "x = (\ny = 1\n  z = 2\n", "1 "},
		{"a zero-width space after a syntax error", "def f(:\n    pass\n\n\nscale = 2\u200b\n", "5 SyntaxError: invalid non-printable character U+200B"},
		{"a string left open after a syntax error", "def f(:\n    pass\n\n\nlabel = 'unit\n", "5 SyntaxError: unterminated string literal (detected at line 5)"},
		{"a triple-quoted string left open after a syntax error", "def f(:\n    pass\nx = '''abc\n\n", "3 SyntaxError: unterminated triple-quoted string literal (detected at line 4)"},
		{"a character no name may hold", "\ufeffimport os\nx = 1 \u20ac 2\n", "2 SyntaxError: invalid character '\u20ac' (U+20AC)"},
		{"a comment left of its block between a decorator and its definition", "class A:\n    @property\n#c\n    def r(self):\n        return 1\n\n    @staticmethod\n  # two\n\n    def s():\n        pass\n", ""},
		{"a comment left of its block, then an error", "class A:\n    @property\n#c\n    def r(self):\n        return 1\n\n\nx = (1,\n", "8 SyntaxError: '(' was never closed"},
		{"a Python 2 tuple parameter before a Python 2 print", "def f(a, (b, c), d=1):\n    print a\n", "1 SyntaxError: Function parameters cannot be parenthesized"},
		{"a Python 2 tuple parameter with a default", "def f(a, (b, c)=(1, 2)):\n    return a\n", "1 SyntaxError: Function parameters cannot be parenthesized"},
		{"a Python 2 tuple parameter of a lambda", "g = lambda (a, b): a\n", "1 SyntaxError: Lambda expression parameters cannot be parenthesized"},
		{"a Python 2 raise", "def f():\n    raise ValueError, 'bad'\n", "2 SyntaxError: invalid syntax (a Python 2 raise statement)"},
		{"a Python 2 raise with a traceback", "raise E, v, tb\n", "1 SyntaxError: invalid syntax (a Python 2 raise statement)"},
		{"a Python 2 except", "try:\n    pass\nexcept ValueError, e:\n    pass\n", "3 SyntaxError: multiple exception types must be parenthesized"},
		{"Python 3 raise and except", "try:\n    pass\nexcept (A, B) as e:\n    raise ValueError('bad') from e\nexcept C:\n    raise\n", ""},
		{"a tuple target, not a parameter", "def f(a, b=(1, 2)):\n    (c, d) = b\n    for (e, g) in [b]:\n        pass\n    return lambda x=(c, d): x\n", ""},
		{"a def alone on its line", "import os\n\n\ndef\ndef evaluate(x):\n    return x\n", "4 SyntaxError: invalid syntax"},
		{"a class alone on its line, with a comment", "class  # later\n", "1 SyntaxError: invalid syntax"},
		{"def and class as words of strings and comments", "x = \"\"\"\ndef\n\"\"\"\ny = 1  # def\n", ""},
		{"letters of any script, and the characters of strings and comments", "\u03bb = 0.5\ne\u0301 = \u03bb * 2\nnote = '\u200b'  # \u200b\n", ""},
	}
	for _, c := range cases {
		f, err := Parse("a.py", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		errs := f.SyntaxErrors()
		got := ""
		if len(errs) > 1 {
			t.Errorf("%s: %d errors, want at most one", c.name, len(errs))
		}
		if len(errs) > 0 {
			got = fmt.Sprintf("%d %s", f.Position(errs[0].Start).Line, errs[0].Message)
		}
		if !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
