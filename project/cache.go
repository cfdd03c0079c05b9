package project

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/fsutil"
	"github.com/torchlint/torchlint/rules"
)

// defaultCacheDir is the cache folder, in the working directory, as
// Ruff's .ruff_cache.
const defaultCacheDir = ".torchlint_cache"

// cacheTag marks the folder as a cache for backup tools
// (https://bford.info/cachedir/).
const cacheTag = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by torchlint.\n# For information about cache directory tags see https://bford.info/cachedir/\n"

// restatsWorthSaving is how many touched but unchanged files make a run
// that changed nothing else save their new stats.
const restatsWorthSaving = 64

// cacheFormat changes whenever the stored layout does.
const cacheFormat = 44

// Cache keeps the findings of each file of a run, keyed by the file's
// path and the rules enabled for it, for the torchlint build, and valid
// for the contents they were found in: the file's SHA-256, or its size
// and modification time where those vouch for it (see Stat). It is
// loaded whole at the start of a run and written whole, atomically, at
// the end, holding the entries that run used; concurrent runs each write
// a complete file, and a damaged file is ignored and rebuilt.
type Cache struct {
	path  string // the cache file of this build
	tool  string // identifies the build
	rules func(path string) string
	mu    sync.Mutex
	old   map[string]cacheEntry
	new   map[string]cacheEntry
	// kept holds the entries of a project's files, not yet encoded,
	// until Flush encodes them once the project is linted: while its
	// facts are solved they hold every summary decoded, and an encoded
	// copy of each is not held beside them.
	kept map[string]keptEntry
	// dirty is set when an entry was made or changed in this run;
	// restats counts the entries whose file was touched, not changed.
	dirty   bool
	restats int
}

type cacheEntry struct {
	// The contents the entry holds for, and the stat of the file that
	// had them.
	Hash [32]byte
	Stat Stat
	// The findings, encoded (see encodeFindings).
	Diags []byte
	// For a file of a project: its summary, whether Diags holds its
	// findings (a file only summarized has none), the questions about
	// other files the findings depend on, with their answers, and the
	// digest of the project they were found in. The summary and the
	// questions stay encoded until needed; nil Summary marks a file
	// linted alone (a notebook).
	Summary []byte
	Linted  bool
	Asked   []byte
	Digest  [32]byte
	SumHash [32]byte // of Summary
}

// toolID identifies this build, so that a rebuilt binary never reads
// another's results: its version and what names its source exactly (the
// module's checksum for `go install`, the commit of a clean checkout),
// else what identifies its executable (exeIdentity).
func toolID(version string) string {
	h := sha256.New()
	h.Write([]byte(version))
	info, ok := debug.ReadBuildInfo()
	if id := sourceIdentity(info, ok); id != "" {
		h.Write([]byte("\x00" + id))
	} else if exe, err := os.Executable(); err == nil {
		h.Write([]byte("\x00" + exeIdentity(exe)))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// exeIdentity identifies the executable file at path: by the build ID
// that the Go linker writes into it (the hashes of what the build read
// and of the binary it made, as `go tool buildid` prints them), else by
// the SHA-256 of its contents, "" if it cannot be read. Reading the ID
// costs a few reads of the file's headers; hashing a 12 MB executable
// took 40 ms on a CPU without SHA instructions, half of a warm check of
// one file.
func exeIdentity(path string) string {
	if id := goBuildID(path); id != "" {
		return "buildid " + id
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "sha256 " + hex.EncodeToString(h.Sum(nil))
}

// goBuildMarker starts the build ID that the Go linker writes at the
// start of the text of a Mach-O or PE executable; an ELF executable holds
// it in a note instead.
var goBuildMarker = []byte("\xff Go build ID: \"")

// goBuildID returns the Go build ID of the executable at path, or "" for
// none (a file that is not a Go executable, or one linked with
// -buildid=).
func goBuildID(path string) string {
	if ef, err := elf.Open(path); err == nil {
		defer func() { _ = ef.Close() }()
		sec := ef.Section(".note.go.buildid")
		if sec == nil || sec.Size > 1<<12 {
			return ""
		}
		note, err := sec.Data()
		// namesz, descsz, type 4, "Go\0\0", then the ID.
		if err != nil || len(note) < 16 || string(note[12:16]) != "Go\x00\x00" || ef.ByteOrder.Uint32(note[8:12]) != 4 {
			return ""
		}
		n := int(ef.ByteOrder.Uint32(note[4:8]))
		if n > len(note)-16 {
			return ""
		}
		return string(note[16 : 16+n])
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	head := make([]byte, 32<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	i := bytes.Index(head, goBuildMarker)
	if i < 0 {
		return ""
	}
	rest := head[i+len(goBuildMarker)-1:] // from the opening quote
	end := bytes.Index(rest, []byte("\"\n \xff"))
	if end < 0 {
		return ""
	}
	id, err := strconv.Unquote(string(rest[:end+1]))
	if err != nil {
		return ""
	}
	return id
}

// sourceIdentity names the exact source of a build, or "" when the build
// information cannot: a build of a modified checkout, or without version
// control information.
func sourceIdentity(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return ""
	}
	if info.Main.Sum != "" {
		return info.GoVersion + " " + info.Main.Path + "@" + info.Main.Version + " " + info.Main.Sum
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" || modified != "false" {
		return ""
	}
	return info.GoVersion + " " + info.Main.Path + " " + rev
}

// OpenCache prepares the cache in dir, creating the folder with its
// .gitignore and CACHEDIR.TAG. version is torchlint's version, part of
// the build's identity; rulesFor names the rules enabled for a file (see
// RuleKey). An unreadable or damaged cache file is ignored.
func OpenCache(dir, version string, rulesFor func(path string) string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	for name, content := range map[string]string{".gitignore": "# Created by torchlint\n*\n", "CACHEDIR.TAG": cacheTag} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			if err := fsutil.WriteFileAtomic(p, []byte(content), 0o644); err != nil {
				return nil, fmt.Errorf("cache: %w", err)
			}
		}
	}
	tool := toolID(version)
	c := &Cache{
		path:  filepath.Join(dir, "results-"+tool+".bin"),
		tool:  tool,
		rules: rulesFor,
		old:   map[string]cacheEntry{},
		new:   map[string]cacheEntry{},
		kept:  map[string]keptEntry{},
	}
	if data, err := os.ReadFile(c.path); err == nil {
		if entries, err := decodeCache(data, tool); err == nil {
			c.old = entries
		}
	}
	return c, nil
}

func (c *Cache) key(path string) string {
	abs := path
	if !filepath.IsAbs(abs) {
		if a, err := filepath.Abs(abs); err == nil {
			abs = a
		}
	}
	return filepath.ToSlash(abs) + "\x00" + c.rules(path)
}

// lookup returns the entry of path for the contents whose SHA-256 is sum,
// or, with sum nil, for the contents the file's stat st vouches for.
func (c *Cache) lookup(path string, sum *[32]byte, st Stat) (string, cacheEntry, bool) {
	k := c.key(path)
	c.mu.Lock()
	e, ok := c.old[k]
	c.mu.Unlock()
	if !ok {
		return k, e, false
	}
	ok, restat := holds(e.Hash, e.Stat, sum, st)
	if restat {
		e.Stat = st
		c.mu.Lock()
		c.restats++
		c.mu.Unlock()
	}
	return k, e, ok
}

// Get returns the stored findings of path with content src.
func (c *Cache) Get(path string, src []byte) ([]analyzer.Diagnostic, bool) {
	sum := sha256.Sum256(src)
	k, e, ok := c.lookup(path, &sum, Stat{})
	if !ok {
		return nil, false
	}
	diags, ok := c.findings(path, e)
	if ok {
		c.use(k, e)
	}
	return diags, ok
}

func (c *Cache) use(k string, e cacheEntry) {
	c.mu.Lock()
	c.new[k] = e
	delete(c.kept, k)
	c.mu.Unlock()
}

// findings turns an entry's stored findings back into diagnostics.
func (c *Cache) findings(path string, e cacheEntry) ([]analyzer.Diagnostic, bool) {
	diags, err := decodeFindings(e.Diags, path, rules.ByCode)
	return diags, err == nil // a rule this build does not have: lint again
}

// Entry implements Store: what the last run found for path with the
// contents whose SHA-256 is sum (or, with sum nil, the contents its stat
// st vouches for). Findings, summaries and recorded facts share one entry.
func (c *Cache) Entry(path string, sum *[32]byte, st Stat) (*Entry, bool) {
	k, e, ok := c.lookup(path, sum, st)
	if !ok || e.Summary == nil {
		return nil, false // findings of a file linted alone (a notebook)
	}
	var diags []analyzer.Diagnostic
	if e.Linted {
		if diags, ok = c.findings(path, e); !ok {
			return nil, false
		}
	}
	c.use(k, e)
	entry := e.entry()
	entry.Diags = diags
	return entry, true
}

// entry is a stored entry as a Store gives it, without its findings:
// its summary and questions are decoded when needed.
func (ce cacheEntry) entry() *Entry {
	return &Entry{Linted: ce.Linted, Hash: ce.Hash, Digest: ce.Digest, SumHash: ce.SumHash, summaryEnc: ce.Summary, askedEnc: ce.Asked}
}

// Previous implements Store. The entry's findings are left out: it
// serves for its summary and its questions.
func (c *Cache) Previous(path string) (*Entry, bool) {
	c.mu.Lock()
	e, ok := c.old[c.key(path)]
	c.mu.Unlock()
	if !ok || e.Summary == nil {
		return nil, false
	}
	return e.entry(), true
}

// keptEntry is an entry kept and not yet encoded.
type keptEntry struct {
	st Stat
	e  *Entry
}

// Keep implements Store. The entry is encoded by Flush or Save; it must
// not change until then.
func (c *Cache) Keep(path string, st Stat, e *Entry) {
	k := c.key(path)
	c.mu.Lock()
	c.kept[k] = keptEntry{st, e}
	delete(c.new, k)
	c.dirty = true
	c.mu.Unlock()
}

// Flush encodes the entries kept since the last Flush, so that the
// store no longer holds what they point to: the Linter calls it after
// each project.
func (c *Cache) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, ke := range c.kept {
		e := ke.e
		ce := c.entry(e.Hash, ke.st, e.Diags)
		sum, asked := e.encoded()
		ce.Summary, ce.Linted, ce.Asked, ce.Digest, ce.SumHash = sum, e.Linted, asked, e.Digest, e.SumHash
		c.new[k] = ce
	}
	clear(c.kept)
}

// Put stores the findings of path with content src.
func (c *Cache) Put(path string, src []byte, diags []analyzer.Diagnostic) {
	c.store(path, c.entry(sha256.Sum256(src), Stat{}, diags))
}

func (c *Cache) entry(hash [32]byte, st Stat, diags []analyzer.Diagnostic) cacheEntry {
	return cacheEntry{Hash: hash, Stat: st, Diags: encodeFindings(diags)}
}

func (c *Cache) store(path string, e cacheEntry) {
	k := c.key(path)
	c.mu.Lock()
	c.new[k] = e
	delete(c.kept, k)
	c.dirty = true
	c.mu.Unlock()
}

// Save writes, atomically, the entries this run used or made and those
// of other files that still exist (a run over part of a tree keeps what
// the rest had); a run that made or changed no entry leaves the file as
// it is.
func (c *Cache) Save() error {
	c.Flush()
	c.mu.Lock()
	defer c.mu.Unlock()
	// Rewriting the whole cache costs more than reading and hashing a few
	// touched files again next time: new stats alone are saved only when
	// they spare many reads.
	if !c.dirty && c.restats < restatsWorthSaving {
		return nil
	}
	entries := make(map[string]cacheEntry, len(c.old))
	for k, e := range c.old {
		if _, used := c.new[k]; !used {
			// A notebook's summary is kept under its path and notebookSummary.
			if path, _, _ := strings.Cut(k, "\x00"); exists(filepath.FromSlash(strings.TrimSuffix(path, notebookSummary))) {
				entries[k] = e
			}
		}
	}
	for k, e := range c.new {
		entries[k] = e
	}
	if err := fsutil.WriteAtomic(c.path, 0o644, func(w io.Writer) error { return writeCache(w, c.tool, entries) }); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	// Files of other builds are left for `torchlint clean`; keep the
	// folder from growing without bound by removing stale ones.
	if old, err := filepath.Glob(filepath.Join(filepath.Dir(c.path), "results-*.bin")); err == nil && len(old) > 4 {
		sort.Slice(old, func(i, j int) bool { return modTime(old[i]) > modTime(old[j]) })
		for _, p := range old[4:] {
			if p != c.path {
				_ = os.Remove(p)
			}
		}
	}
	return nil
}

func modTime(p string) int64 {
	if info, err := os.Stat(p); err == nil {
		return info.ModTime().UnixNano()
	}
	return 0
}

// RuleKey names the set of rules enabled for a file, for cache keys.
func RuleKey(set map[*analyzer.Rule]bool) string {
	codes := make([]string, 0, len(set))
	for r := range set {
		codes = append(codes, r.Code)
	}
	sort.Strings(codes)
	return strings.Join(codes, ",")
}

// RemoveCache removes the cache folder dir, as `torchlint clean` does.
// It reports false when there is nothing at dir, and refuses a folder
// without the CACHEDIR.TAG that OpenCache writes.
func RemoveCache(dir string) (removed bool, err error) {
	if _, err := os.Stat(filepath.Join(dir, "CACHEDIR.TAG")); err != nil {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, fmt.Errorf("%s is not a torchlint cache (no CACHEDIR.TAG); not removed", dir)
	}
	if err := os.RemoveAll(dir); err != nil {
		return false, err
	}
	return true, nil
}

// CacheDir returns the cache folder: dir when it is not empty (the
// --cache-dir flag), else $TORCHLINT_CACHE_DIR, else .torchlint_cache.
func CacheDir(dir string) string {
	if dir == "" {
		dir = os.Getenv("TORCHLINT_CACHE_DIR")
	}
	if dir == "" {
		dir = defaultCacheDir
	}
	return dir
}

// cacheMagic starts a cache file; cacheFormat and the build's identity
// follow, then the entries, then the CRC-32C of all that precedes it, so
// that a damaged file is ignored rather than misread.
const cacheMagic = "torchlint cache\n"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encodeCache returns a cache file of entries.
func encodeCache(tool string, entries map[string]cacheEntry) []byte {
	var b bytes.Buffer
	_ = writeCache(&b, tool, entries)
	return b.Bytes()
}

// writeCache writes a cache file of entries, in the order of their keys,
// a piece at a time.
func writeCache(w io.Writer, tool string, entries map[string]cacheEntry) error {
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	sum := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, sum), 64<<10)
	e := encoder{b: make([]byte, 0, 4096)}
	flush := func() {
		_, _ = bw.Write(e.b) // a failed write is the writer's error, returned by Flush
		e.b = e.b[:0]
	}
	blob := func(b []byte) {
		e.count(len(b), b == nil)
		flush()
		_, _ = bw.Write(b)
	}
	e.b = append(e.b, cacheMagic...)
	e.uint(cacheFormat)
	e.bytes([]byte(tool))
	e.uint(uint64(len(keys)))
	for _, k := range keys {
		ce := entries[k]
		e.bytes([]byte(k))
		e.b = append(e.b, ce.Hash[:]...)
		e.int(ce.Stat.Size)
		e.int(ce.Stat.ModTime)
		e.uint(uint64(ce.Stat.Mode))
		e.bool(ce.Stat.Settled)
		blob(ce.Diags)
		blob(ce.Summary)
		e.bool(ce.Linted)
		blob(ce.Asked)
		e.b = append(e.b, ce.Digest[:]...)
		e.b = append(e.b, ce.SumHash[:]...)
	}
	flush()
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(binary.LittleEndian.AppendUint32(nil, sum.Sum32()))
	return err
}

// decodeCache reads a cache file of the build tool. The entries' encoded
// parts share data.
func decodeCache(data []byte, tool string) (map[string]cacheEntry, error) {
	if len(data) < len(cacheMagic)+4 || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, errCorrupt
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[len(body):]) {
		return nil, errCorrupt
	}
	d := decoder{b: body[len(cacheMagic):]}
	if d.uint() != cacheFormat || string(d.bytes()) != tool {
		return nil, errors.New("cache of another format or build")
	}
	n := d.uint()
	if n > uint64(len(d.b)) {
		return nil, errCorrupt
	}
	entries := make(map[string]cacheEntry, n)
	for range n {
		k := string(d.bytes())
		var ce cacheEntry
		copy(ce.Hash[:], d.raw(32))
		ce.Stat = Stat{Size: d.int(), ModTime: d.int(), Mode: d.uint32(), Settled: d.bool()}
		ce.Diags = d.bytes()
		ce.Summary = d.bytes()
		ce.Linted = d.bool()
		ce.Asked = d.bytes()
		copy(ce.Digest[:], d.raw(32))
		copy(ce.SumHash[:], d.raw(32))
		if d.err != nil {
			return nil, d.err
		}
		entries[k] = ce
	}
	if err := d.done(); err != nil {
		return nil, err
	}
	return entries, nil
}
