package project

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/fsutil"
	"github.com/torchlint/torchlint/rules"
)

// configNames are the files that may configure torchlint, in the order
// they win within one directory, as with Ruff's .ruff.toml, ruff.toml and
// pyproject.toml.
var configNames = []string{".torchlint.toml", "torchlint.toml", "pyproject.toml"}

// fileConfig is the [tool.torchlint] table of a pyproject.toml, or the
// top level of a torchlint.toml. Pointers tell a key left out from one
// given empty.
type fileConfig struct {
	Select           *[]string           `toml:"select"`
	ExtendSelect     []string            `toml:"extend-select"`
	Ignore           []string            `toml:"ignore"`
	PerFileIgnores   map[string][]string `toml:"per-file-ignores"`
	Exclude          *[]string           `toml:"exclude"`
	ExtendExclude    []string            `toml:"extend-exclude"`
	Extend           string              `toml:"extend"`
	RespectGitignore *bool               `toml:"respect-gitignore"`
	ForceExclude     *bool               `toml:"force-exclude"`
	MaxFileSize      *float64            `toml:"max-file-size"`
	Src              *[]string           `toml:"src"`
	Confidence       *string             `toml:"confidence"`
}

// configError is a problem in a configuration file, reported as
// path:line: reason.
type configError struct {
	Path   string
	Line   int
	Reason string
}

func (e *configError) Error() string {
	p := e.Path
	if cwd, err := os.Getwd(); err == nil && filepath.IsAbs(p) {
		if rel, err := filepath.Rel(cwd, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel // shown as the user would type it
		}
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s: %s", p, e.Reason)
}

// Settings are what one configuration (with the files it extends) says,
// before command-line flags are applied.
type Settings struct {
	// Path is the configuration file, "" for the defaults.
	Path string
	// Root is the project root that relative patterns are anchored to:
	// the directory of the configuration file.
	Root string
	// Layers are the rule selections, base configuration first.
	Layers         []rules.Selection
	PerFileIgnores []perFileIgnore
	// Exclude replaces the default excludes when set; ExtendExclude adds.
	Exclude          []string
	ExcludeSet       bool
	ExtendExclude    []string
	RespectGitignore bool
	ForceExclude     bool
	// MaxFileSizeMB is the size over which files are not linted; 0 keeps
	// the default, a negative value lifts the limit.
	MaxFileSizeMB float64
	// Src are the folders absolute imports resolve against besides the
	// root and root/src (Ruff's `src`), absolute.
	Src []string
	// Confidence is the lowest confidence of the findings shown; 0 keeps
	// each rule's own (analyzer.Rule.ShownFrom).
	Confidence analyzer.Confidence
}

// perFileIgnore turns rules off for the files matching a pattern.
type perFileIgnore struct {
	Pattern  string // absolute, with forward slashes
	Basename string // the pattern as written, when it has no slash
	Negated  bool
	Codes    []string
}

// matches reports whether the pattern selects the file: its path under
// the project root, or for a pattern without a slash its name. A negated
// pattern selects the files that do not match.
func (p perFileIgnore) matches(absPath string) bool {
	slashed := filepath.ToSlash(absPath)
	ok, _ := doublestar.Match(p.Pattern, slashed)
	if !ok && p.Basename != "" {
		ok, _ = doublestar.Match(p.Basename, path.Base(slashed))
	}
	return ok != p.Negated
}

func sortPerFileIgnores(ps []perFileIgnore) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].Pattern < ps[j].Pattern })
}

// defaultSettings apply where no configuration file is found.
func defaultSettings(root string) *Settings {
	return &Settings{Root: root, RespectGitignore: true}
}

// loadConfig reads the configuration in path, following `extend`. It
// returns nil, nil for a pyproject.toml without a [tool.torchlint] table.
func loadConfig(path string) (*Settings, error) {
	return loadConfigDepth(path, map[string]bool{})
}

func loadConfigDepth(path string, seen map[string]bool) (*Settings, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &configError{Path: path, Reason: err.Error()}
	}
	if seen[abs] {
		return nil, &configError{Path: path, Reason: "`extend` forms a cycle"}
	}
	seen[abs] = true
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &configError{Path: path, Reason: "cannot read: " + fsutil.UnwrapPath(err).Error()}
	}
	fc, found, err := parseConfig(path, data)
	if err != nil || !found {
		return nil, err
	}
	s := defaultSettings(filepath.Dir(abs))
	s.Path = path
	if fc.Extend != "" {
		base := fc.Extend
		if strings.HasPrefix(base, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				base = filepath.Join(home, base[2:])
			}
		}
		base = os.ExpandEnv(base)
		if !filepath.IsAbs(base) {
			base = filepath.Join(s.Root, base)
		}
		parent, err := loadConfigDepth(base, seen)
		if err != nil {
			return nil, err
		}
		if parent == nil {
			return nil, &configError{Path: path, Line: keyLine(data, path, "extend"), Reason: fmt.Sprintf("`extend` names %s, which has no [tool.torchlint] table", fc.Extend)}
		}
		// The extended file's settings are the base; this file's keys
		// override them, and its extend-* keys add to them. Patterns
		// stay anchored where they were written.
		root := s.Root
		*s = *parent
		s.Path, s.Root = path, root
		s.Layers = append([]rules.Selection(nil), parent.Layers...)
		s.ExtendExclude = append([]string(nil), parent.ExtendExclude...)
	}
	layer := rules.Selection{ExtendSelect: fc.ExtendSelect, Ignore: fc.Ignore}
	if fc.Select != nil {
		layer.Select = *fc.Select
		layer.SelectSet = true
	}
	s.Layers = append(s.Layers, layer)
	if fc.PerFileIgnores != nil {
		s.PerFileIgnores = nil
		for pattern, codes := range fc.PerFileIgnores {
			for _, c := range codes {
				if err := rules.CheckSelector(c); err != nil {
					return nil, &configError{Path: path, Line: keyLine(data, path, "per-file-ignores", pattern), Reason: err.Error()}
				}
			}
			pfi := perFileIgnore{Pattern: pattern, Codes: codes}
			if strings.HasPrefix(pattern, "!") {
				pfi.Pattern, pfi.Negated = pattern[1:], true
			}
			if !strings.Contains(pfi.Pattern, "/") {
				pfi.Basename = pfi.Pattern
			}
			if !filepath.IsAbs(pfi.Pattern) {
				pfi.Pattern = filepath.ToSlash(filepath.Join(s.Root, pfi.Pattern))
			}
			s.PerFileIgnores = append(s.PerFileIgnores, pfi)
		}
		sortPerFileIgnores(s.PerFileIgnores)
	}
	for _, sel := range [][2]any{{"select", layer.Select}, {"extend-select", layer.ExtendSelect}, {"ignore", layer.Ignore}} {
		for _, c := range sel[1].([]string) {
			if err := rules.CheckSelector(c); err != nil {
				return nil, &configError{Path: path, Line: keyLine(data, path, sel[0].(string)), Reason: err.Error()}
			}
		}
	}
	if fc.Exclude != nil {
		s.Exclude, s.ExcludeSet = Anchor(*fc.Exclude, s.Root), true
	}
	s.ExtendExclude = append(s.ExtendExclude, Anchor(fc.ExtendExclude, s.Root)...)
	if fc.RespectGitignore != nil {
		s.RespectGitignore = *fc.RespectGitignore
	}
	if fc.ForceExclude != nil {
		s.ForceExclude = *fc.ForceExclude
	}
	if fc.MaxFileSize != nil {
		s.MaxFileSizeMB = *fc.MaxFileSize
	}
	if fc.Confidence != nil {
		c, err := analyzer.ParseConfidence(*fc.Confidence)
		if err != nil {
			return nil, &configError{Path: path, Line: keyLine(data, path, "confidence"), Reason: "`confidence`: " + err.Error()}
		}
		s.Confidence = c
	}
	if fc.Src != nil {
		s.Src = nil
		for _, d := range *fc.Src {
			if !filepath.IsAbs(d) {
				d = filepath.Join(s.Root, d)
			}
			s.Src = append(s.Src, filepath.Clean(d))
		}
	}
	return s, nil
}

// parseConfig decodes the torchlint table of a configuration file. found
// is false for a pyproject.toml without [tool.torchlint]. Unknown keys and
// values of the wrong type are errors with the line they are on.
func parseConfig(path string, data []byte) (fc fileConfig, found bool, err error) {
	pyproject := filepath.Base(path) == "pyproject.toml"
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var derr error
	if pyproject {
		var doc struct {
			Tool struct {
				Torchlint *fileConfig `toml:"torchlint"`
			} `toml:"tool"`
		}
		derr = dec.Decode(&doc)
		if doc.Tool.Torchlint != nil {
			fc, found = *doc.Tool.Torchlint, true
		}
	} else {
		derr = dec.Decode(&fc)
		found = true
	}
	var strict *toml.StrictMissingError
	var de *toml.DecodeError
	switch {
	case errors.As(derr, &strict):
		// In a pyproject.toml, only keys of [tool.torchlint] are ours.
		for _, e := range strict.Errors {
			key := []string(e.Key())
			if pyproject && (len(key) < 3 || key[0] != "tool" || key[1] != "torchlint") {
				continue
			}
			if pyproject {
				key = key[2:]
			}
			line, _ := e.Position()
			return fc, found, &configError{Path: path, Line: line, Reason: fmt.Sprintf("unknown key `%s` (expected one of: %s)", strings.Join(key, "."), configKeys())}
		}
	case errors.As(derr, &de):
		line, _ := de.Position()
		key := []string(de.Key())
		if pyproject && len(key) >= 2 && key[0] == "tool" && key[1] == "torchlint" {
			key = key[2:]
		}
		reason := strings.TrimPrefix(de.Error(), "toml: ")
		if len(key) > 0 {
			reason = fmt.Sprintf("`%s`: %s", strings.Join(key, "."), typeReason(key, reason))
		}
		return fc, found, &configError{Path: path, Line: line, Reason: reason}
	case derr != nil:
		return fc, found, &configError{Path: path, Reason: derr.Error()}
	}
	return fc, found, nil
}

// typeReason says what a key expects and what the file gives, in TOML
// terms (go-toml's message names Go types).
func typeReason(key []string, msg string) string {
	got := ""
	if m := tomlTypeRE.FindStringSubmatch(msg); m != nil {
		got = ", got " + article(m[1])
	}
	want := "a different value"
	switch {
	case len(key) == 2 && key[0] == "per-file-ignores":
		want = "an array of rule codes"
	case len(key) != 1:
	case key[0] == "per-file-ignores":
		want = "a table of pattern = [codes]"
	case key[0] == "respect-gitignore" || key[0] == "force-exclude":
		want = "true or false"
	case key[0] == "extend":
		want = "a path (a string)"
	case key[0] == "max-file-size":
		want = "a number of megabytes"
	case key[0] == "confidence":
		want = "high, medium or low (a string)"
	default:
		want = "an array of strings"
	}
	return "expected " + want + got
}

var tomlTypeRE = regexp.MustCompile(`cannot decode TOML (\w+)`)

func article(tomlType string) string {
	switch tomlType[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + tomlType
	}
	return "a " + tomlType
}

func configKeys() string {
	return "select, extend-select, ignore, per-file-ignores, exclude, extend-exclude, extend, respect-gitignore, force-exclude, max-file-size, src, confidence"
}

// keyLine finds the line of a key of the torchlint table, for errors
// about its value; 0 when it cannot be found.
func keyLine(data []byte, path string, key ...string) int {
	want := key
	if filepath.Base(path) == "pyproject.toml" {
		want = append([]string{"tool", "torchlint"}, key...)
	}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		var k []string
		var first *unstable.Node
		for it := e.Key(); it.Next(); {
			if first == nil {
				first = it.Node()
			}
			k = append(k, string(it.Node().Data))
		}
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = k
			if equalKeys(k, want) {
				return p.Shape(e.Raw).Start.Line
			}
		case unstable.KeyValue:
			full := append(append([]string(nil), table...), k...)
			if equalKeys(full, want) && first != nil {
				return p.Shape(p.Range(first.Data)).Start.Line
			}
		}
	}
	return 0
}

func equalKeys(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Anchor makes relative patterns that hold a slash absolute under root;
// a pattern without a slash matches a name anywhere and stays as it is.
// Exclude patterns given on the command line are anchored to the working
// directory with it.
func Anchor(patterns []string, root string) []string {
	out := make([]string, 0, len(patterns))
	for _, p := range patterns {
		if strings.Contains(p, "/") && !filepath.IsAbs(p) {
			p = filepath.ToSlash(filepath.Join(root, p))
		}
		out = append(out, p)
	}
	return out
}

// Configs finds and loads the configuration that governs each
// directory: the closest configuration file in it or above it, or one
// configuration for all. It is safe for concurrent use.
type Configs struct {
	mu       sync.Mutex
	byDir    map[string]*Settings
	fixed    *Settings // --config or --isolated: one configuration for all
	defaults *Settings
	// sets holds the rule sets worked out so far: files with the same
	// settings and the same matching per-file ignores share one.
	sets sync.Map // ruleSetKey → ruleSetMemo
}

type ruleSetKey struct {
	s       *Settings
	matched string // the indices of the per-file ignores that match
}

type ruleSetMemo struct {
	cli rules.Selection
	set map[*analyzer.Rule]bool
	err error
}

// NewConfigs looks up the closest configuration file of each directory;
// directories without one get the defaults, anchored at cwd.
func NewConfigs(cwd string) *Configs {
	return &Configs{byDir: map[string]*Settings{}, defaults: defaultSettings(cwd)}
}

// ConfigOptions choose how a run finds its configuration.
type ConfigOptions struct {
	// File is a configuration file (pyproject.toml or torchlint.toml)
	// that governs every file, instead of the closest one.
	File string
	// Isolated ignores all configuration files.
	Isolated bool
}

// LoadConfigs prepares the configuration lookup of a run: the closest
// configuration file of each directory, or one file for all
// (opts.File), or none (opts.Isolated).
func LoadConfigs(cwd string, opts ConfigOptions) (*Configs, error) {
	c := NewConfigs(cwd)
	switch {
	case opts.Isolated:
		c.fixed = defaultSettings(cwd)
	case opts.File != "":
		s, err := loadConfig(opts.File)
		if err != nil {
			return nil, err
		}
		if s == nil {
			return nil, fmt.Errorf("%s: no [tool.torchlint] table", opts.File)
		}
		c.fixed = s
	}
	return c, nil
}

// ForDir returns the settings for files in the absolute directory dir.
func (c *Configs) ForDir(dir string) (*Settings, error) {
	return c.ForListedDir(dir, nil)
}

// ForListedDir is ForDir for a folder whose entries the caller has just
// read (a directory walk): configuration files not among them are not
// looked for. With entries nil, every configuration name is looked for.
func (c *Configs) ForListedDir(dir string, entries []fs.DirEntry) (*Settings, error) {
	if c.fixed != nil {
		return c.fixed, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.forDirLocked(dir, entries)
}

// forDirLocked is ForListedDir with c.mu held.
func (c *Configs) forDirLocked(dir string, entries []fs.DirEntry) (*Settings, error) {
	if s, ok := c.byDir[dir]; ok {
		return s, nil
	}
	for _, name := range configNames {
		if entries != nil && !listed(entries, name) {
			continue
		}
		p := filepath.Join(dir, name)
		info, err := os.Stat(p)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, &configError{Path: p, Reason: "cannot read: " + fsutil.UnwrapPath(err).Error()}
			}
			continue
		}
		if info.IsDir() {
			continue
		}
		s, err := loadConfig(p)
		if err != nil {
			return nil, err
		}
		if s != nil {
			c.byDir[dir] = s
			return s, nil
		}
	}
	parent := filepath.Dir(dir)
	var s *Settings
	if parent == dir {
		s = c.defaults
	} else {
		var err error
		if s, err = c.forDirLocked(parent, nil); err != nil {
			return nil, err
		}
	}
	c.byDir[dir] = s
	return s, nil
}

// SrcFor returns the extra import roots (`src`) of the project rooted at
// root: those of the configuration that governs its folder.
func (c *Configs) SrcFor(root string) []string {
	s, err := c.ForDir(root)
	if err != nil {
		return nil
	}
	return s.Src
}

// ConfidenceFor is the lowest confidence of the findings shown for a
// file: its configuration's `confidence`, or 0 for each rule's own.
func (c *Configs) ConfidenceFor(path string) analyzer.Confidence {
	if s, err := c.forFile(path); err == nil {
		return s.Confidence
	}
	return 0
}

// forFile returns the settings of the directory holding path.
func (c *Configs) forFile(path string) (*Settings, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return c.ForDir(filepath.Dir(abs))
}

// ruleFilter is the set of rules enabled for one file: its settings'
// selection layers, then the command line's, minus its per-file ignores.
func ruleFilter(s *Settings, cli rules.Selection, absPath string) (map[*analyzer.Rule]bool, error) {
	layers := append(append([]rules.Selection(nil), s.Layers...), cli)
	for _, pfi := range s.PerFileIgnores {
		if pfi.matches(absPath) {
			layers = append(layers, rules.Selection{Ignore: pfi.Codes})
		}
	}
	enabled, err := rules.ResolveLayers(layers)
	if err != nil {
		return nil, err
	}
	set := make(map[*analyzer.Rule]bool, len(enabled))
	for _, r := range enabled {
		set[r] = true
	}
	return set, nil
}

// RulesFor is the set of rules that run on one file: its configuration's
// selections, the command line's (cli), then its per-file ignores. A file
// whose configuration cannot be read gets the command line's selection
// alone (the error is reported when the file is discovered).
func (c *Configs) RulesFor(cli rules.Selection, path string) map[*analyzer.Rule]bool {
	s, err := c.forFile(path)
	if err != nil {
		s = c.defaults
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	set, err := c.ruleFilter(s, cli, abs)
	if err != nil {
		set, _ = c.ruleFilter(c.defaults, cli, abs)
	}
	return set
}

// ruleFilter is the package's ruleFilter, worked out once per settings,
// command-line selection and set of matching per-file ignores.
func (c *Configs) ruleFilter(s *Settings, cli rules.Selection, absPath string) (map[*analyzer.Rule]bool, error) {
	var matched []byte
	for i, pfi := range s.PerFileIgnores {
		if pfi.matches(absPath) {
			matched = binary.AppendUvarint(matched, uint64(i))
		}
	}
	k := ruleSetKey{s: s, matched: string(matched)}
	if v, ok := c.sets.Load(k); ok {
		if m := v.(ruleSetMemo); reflect.DeepEqual(m.cli, cli) {
			return m.set, m.err
		}
	}
	set, err := ruleFilter(s, cli, absPath)
	c.sets.Store(k, ruleSetMemo{cli: cli, set: set, err: err})
	return set, err
}

// listed reports whether entries hold one named name, in any case: on a
// case-insensitive file system the name opens it.
func listed(entries []fs.DirEntry, name string) bool {
	for _, e := range entries {
		if strings.EqualFold(e.Name(), name) {
			return true
		}
	}
	return false
}

// IsConfigFile reports whether path names a file that may configure
// torchlint (pyproject.toml, torchlint.toml or .torchlint.toml).
func IsConfigFile(path string) bool {
	base := filepath.Base(path)
	for _, c := range configNames {
		if base == c {
			return true
		}
	}
	return false
}
