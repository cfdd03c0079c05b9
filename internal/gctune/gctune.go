// Package gctune lets the garbage collector run less often while a
// process's live heap is small, without letting the heap grow beyond what
// the default setting would give once it is large.
//
// Go's default (GOGC=100) collects each time the heap doubles its live
// part. A linter's heap is mostly short-lived parse trees and models
// around a live heap of a few tens of megabytes, so the default collects
// very often while holding little. After each collection, Start's tuner
// sets the target so that the heap may grow to a budget: live×(1+p/100)
// = budget, with p between 100 (the default) and 400. Once the live heap
// passes half the budget, p is 100 and the collector behaves as by
// default; it never collects more often than that.
//
// The tuner also sets a soft memory limit a little above the budget, or
// twice the live heap where that is more (Limit): the runtime then
// returns freed pages to the system as the process nears it, where by
// default it keeps them, which kept a process's peak resident memory up
// to 20 MB above what its heap needed.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The bounds of the GC percent the tuner sets.
const (
	minPercent = 100
	maxPercent = 400
)

// Start tunes the collector for a heap budget in bytes, unless the
// environment sets GOGC or GOMEMLIMIT: the user's settings win. stop ends
// the tuning and leaves the GC percent as it was before Start.
func Start(budget uint64) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	t := &tuner{budget: budget, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	before := debug.SetGCPercent(maxPercent)
	limitBefore := debug.SetMemoryLimit(-1)
	t.tune()
	runtime.SetFinalizer(&sentinel{t}, rearm)
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.stopped = true
		debug.SetGCPercent(before)
		debug.SetMemoryLimit(limitBefore)
	}
}

// sentinel is garbage as soon as it is made: its finalizer runs after
// each collection, tunes, and arms itself again until the tuner stops.
type sentinel struct{ t *tuner }

func rearm(s *sentinel) {
	if s.t.tune() {
		runtime.SetFinalizer(s, rearm)
	}
}

type tuner struct {
	budget  uint64
	sample  []metrics.Sample
	mu      sync.Mutex
	stopped bool
}

// tune sets the GC percent from the live heap of the last collection,
// and reports whether the tuner still runs.
func (t *tuner) tune() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return false
	}
	metrics.Read(t.sample)
	live := uint64(0)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live = t.sample[0].Value.Uint64()
	}
	debug.SetGCPercent(Percent(live, t.budget))
	debug.SetMemoryLimit(Limit(live, t.budget))
	return true
}

// limitRatio is the memory limit over the budget, in eighths.
const limitRatio = 11

// Limit is the soft memory limit for a heap with live bytes and a
// budget: 11/8 of the budget (room for the runtime's own memory beside
// the heap), or twice the live heap and 16 MiB where that is more, so
// that a large live heap never makes the collector run without pause.
func Limit(live, budget uint64) int64 {
	return int64(max(budget*limitRatio/8, 2*live+16<<20))
}

// Percent is the GC percent that lets a heap with live bytes grow to
// budget, within [100, 400].
func Percent(live, budget uint64) int {
	if live == 0 || live*(1+maxPercent/100) <= budget {
		return maxPercent
	}
	p := int((budget - min(live, budget)) * 100 / live)
	return max(minPercent, min(maxPercent, p))
}
