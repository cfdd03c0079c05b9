package project

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/rules"
)

// fill sets every exported field reachable from v to a value that is not
// its zero value and differs from the others, so that a field the codec
// forgets fails the round trip. skip names fields left alone.
func fill(t testing.TB, v reflect.Value, n *int, skip map[string]bool) {
	*n++
	switch v.Type() {
	case reflect.TypeFor[analyzer.Pairs]():
		// Keys in order, each once, as PairsOf lists them.
		v.Set(reflect.ValueOf(analyzer.Pairs{{Key: fmt.Sprintf("a%d", *n), Value: "s1"}, {Key: fmt.Sprintf("b%d", *n), Value: "s2"}}))
		return
	case reflect.TypeFor[analyzer.GradMode]():
		v.SetUint(uint64(analyzer.GradDisabled + analyzer.GradMode(*n%2)))
		return
	case reflect.TypeFor[analyzer.Applicability]():
		v.SetUint(uint64(analyzer.Unsafe))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n%7)) // repeated strings, as in real summaries
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n * 1000003))
	case reflect.Uint32:
		v.SetUint(uint64(*n) * 70001)
	case reflect.Uint16:
		v.SetUint(uint64(*n%65000 + 1))
	case reflect.Uint8:
		v.SetUint(uint64(*n%250 + 1))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), n, skip)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(t, v.Index(i), n, skip)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 3 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, k, n, skip)
			k.SetString(fmt.Sprintf("k%d", *n)) // distinct keys
			fill(t, e, n, skip)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.IsExported() && !skip[f.Name] {
				fill(t, v.Field(i), n, skip)
			}
		}
	default:
		t.Fatalf("fill: no rule for %s (%s): teach the codec and this test the new field", v.Type(), v.Kind())
	}
}

func TestSummaryCodecRoundTrip(t *testing.T) {
	var full analyzer.Summary
	n := 0
	fill(t, reflect.ValueOf(&full).Elem(), &n, nil)
	full.All = []string{} // `__all__ = []` exports nothing, unlike no __all__
	for _, s := range []*analyzer.Summary{&full, {}} {
		b := encodeSummary(s)
		got, err := decodeSummary(b)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("round trip changed the summary:\n got %+v\nwant %+v", got, s)
		}
	}
	// Names out of order, or twice, are damage: Get could not find them.
	for _, rs := range []analyzer.Pairs{{{Key: "b", Value: "x"}, {Key: "a", Value: "y"}}, {{Key: "a", Value: "x"}, {Key: "a", Value: "y"}}} {
		if got, err := decodeSummary(encodeSummary(&analyzer.Summary{Instances: rs})); err == nil {
			t.Errorf("instances %v decoded as %v", rs, got.Instances)
		}
	}
	// Interning: a string repeated across fields is written once.
	if b := encodeSummary(&full); strings.Count(string(b), "s3") != 1 {
		t.Errorf("repeated string written %d times, want once", strings.Count(string(b), "s3"))
	}
}

func TestFindingsCodecRoundTrip(t *testing.T) {
	var d analyzer.Diagnostic
	n := 0
	fill(t, reflect.ValueOf(&d).Elem(), &n, map[string]bool{"Rule": true, "Path": true})
	d.Rule, d.Path = rules.ByCode("TL101"), "a/train.py"
	plain := analyzer.Diagnostic{Rule: rules.ByCode("TL201"), Path: d.Path, Message: "m"}
	for _, diags := range [][]analyzer.Diagnostic{{d, plain}, {}} {
		got, err := decodeFindings(encodeFindings(diags), d.Path, rules.ByCode)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if !reflect.DeepEqual(got, diags) {
			t.Errorf("round trip changed the findings:\n got %+v\nwant %+v", got, diags)
		}
	}
	if _, err := decodeFindings(encodeFindings([]analyzer.Diagnostic{d}), d.Path, func(string) *analyzer.Rule { return nil }); err == nil {
		t.Error("a finding of an unknown rule decoded")
	}
	asked := Questions{{Key: "Ha", Value: ""}, {Key: "mod.f", Value: "F.1"}}
	if got, err := decodeAsked(encodeAsked(asked)); err != nil || !reflect.DeepEqual(got, asked) {
		t.Errorf("asked round trip: %v, %v", got, err)
	}
	// The questions are written as a map of them was (its length, then
	// each key and value in the order of the keys), which older caches
	// hold; out of order, or twice, they are damage.
	var e encoder
	e.count(2, false)
	for _, s := range []string{"Ha", "", "mod.f", "F.1"} {
		e.str(s)
	}
	if got, err := decodeAsked(e.b); err != nil || !reflect.DeepEqual(got, asked) {
		t.Errorf("questions written as a map: %v, %v", got, err)
	}
	for _, qs := range []Questions{{{Key: "mod.f", Value: "F.1"}, {Key: "Ha", Value: ""}}, {{Key: "Ha", Value: ""}, {Key: "Ha", Value: ""}}} {
		if got, err := decodeAsked(encodeAsked(qs)); err == nil {
			t.Errorf("questions %v decoded as %v", qs, got)
		}
	}
}

// TestCacheFileDamage checks that a cache file cut short or with any
// byte changed is refused, never misread and never a panic.
func TestCacheFileDamage(t *testing.T) {
	var s analyzer.Summary
	n := 0
	fill(t, reflect.ValueOf(&s).Elem(), &n, nil)
	entries := map[string]cacheEntry{
		"/p/a.py\x00TL101": {Hash: [32]byte{1}, Stat: Stat{Size: 10, ModTime: 99, Mode: 0o644, Settled: true},
			Diags: encodeFindings(nil), Summary: encodeSummary(&s), Linted: true, Asked: encodeAsked(Questions{{Key: "x", Value: "y"}}), Digest: [32]byte{2}},
		"/p/b.ipynb\x00TL101": {Hash: [32]byte{3}, Diags: encodeFindings(nil)},
	}
	data := encodeCache("tool", entries)
	got, err := decodeCache(data, "tool")
	if err != nil || !reflect.DeepEqual(got, entries) {
		t.Fatalf("round trip: %v\n got %+v\nwant %+v", err, got, entries)
	}
	if _, err := decodeCache(data, "other"); err == nil {
		t.Error("another build's cache was read")
	}
	for i := range len(data) {
		if _, err := decodeCache(data[:i], "tool"); err == nil {
			t.Fatalf("a file cut to %d of %d bytes was read", i, len(data))
		}
		damaged := []byte(string(data))
		damaged[i] ^= 0x10
		if _, err := decodeCache(damaged, "tool"); err == nil {
			t.Fatalf("a file with byte %d changed was read", i)
		}
	}
	// A damaged record inside an intact file is refused too.
	b := encodeSummary(&s)
	for i := range len(b) {
		if _, err := decodeSummary(b[:i]); err == nil {
			t.Fatalf("a summary cut to %d of %d bytes decoded", i, len(b))
		}
	}
}

// TestAnswerCodecRoundTrip: an answer of the project reads back whole,
// so that an edited file linted with its previous answers (replayFacts)
// sees what the solved project told its last version.
func TestAnswerCodecRoundTrip(t *testing.T) {
	var full analyzer.Object
	n := 0
	fill(t, reflect.ValueOf(&full).Elem(), &n, nil)
	for _, o := range []*analyzer.Object{&full, {Kind: analyzer.ObjectFunction}, nil} {
		s := encodeAnswer(o)
		if (s == "") != (o == nil) {
			t.Errorf("%+v encodes as %q: only no answer may be empty", o, s)
		}
		got, err := decodeAnswer(s)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if !reflect.DeepEqual(got, o) {
			t.Errorf("round trip changed the answer:\n got %+v\nwant %+v", got, o)
		}
	}
	if _, err := decodeAnswer(encodeAnswer(&full)[:10]); err == nil {
		t.Error("a cut answer decoded")
	}
}
