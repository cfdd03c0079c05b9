package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live, budget uint64
		want         int
	}{
		{0, 80 * mb, 400},        // nothing live yet
		{10 * mb, 80 * mb, 400},  // the most the tuner allows
		{16 * mb, 80 * mb, 400},  // 16×5 = 80
		{20 * mb, 80 * mb, 300},  // 20×4 = 80
		{40 * mb, 80 * mb, 100},  // half the budget: the default
		{60 * mb, 80 * mb, 100},  // never below the default
		{200 * mb, 80 * mb, 100}, // past the budget
	} {
		if got := Percent(tc.live, tc.budget); got != tc.want {
			t.Errorf("Percent(%d MiB, %d MiB) = %d, want %d", tc.live/mb, tc.budget/mb, got, tc.want)
		}
	}
}

// TestStartLeavesUserSettings: GOGC or GOMEMLIMIT in the environment
// turns the tuner off.
func TestStartLeavesUserSettings(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, "50")
			old := debug.SetGCPercent(100)
			defer debug.SetGCPercent(old)
			defer Start(1 << 40)()
			runtime.GC()
			if p := debug.SetGCPercent(100); p != 100 {
				t.Errorf("with %s set, the GC percent became %d", env, p)
			}
		})
	}
}

// TestStartTunes: with a budget far above the live heap, the tuner sets
// the most it allows, and sets it again after a collection; once stopped,
// it sets nothing and the percent is the one it found.
func TestStartTunes(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	stop := Start(1 << 40)
	if p := debug.SetGCPercent(100); p != maxPercent {
		t.Fatalf("after Start, the GC percent is %d, want %d", p, maxPercent)
	}
	// A collection runs the finalizer, which tunes again.
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		p := debug.SetGCPercent(100)
		if p == maxPercent {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after collections, the GC percent stayed %d, want %d", p, maxPercent)
		}
	}
	stop()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("after stop, the GC percent is %d, want the 100 it found", p)
	}
	for range 3 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("collections after stop set the GC percent to %d", p)
	}
}

func TestLimit(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live, budget uint64
		want         int64
	}{
		{0, 80 * mb, 110 * mb},         // room beside the budget
		{40 * mb, 80 * mb, 110 * mb},   // 2×40+16 = 96, below it
		{60 * mb, 80 * mb, 136 * mb},   // twice the live heap, and 16
		{500 * mb, 80 * mb, 1016 * mb}, // a large heap is never held down
	} {
		if got := Limit(tc.live, tc.budget); got != tc.want {
			t.Errorf("Limit(%d MiB, %d MiB) = %d MiB, want %d MiB", tc.live/mb, tc.budget/mb, got/mb, tc.want/mb)
		}
	}
}

// TestStartSetsLimit: Start sets a memory limit, and stop restores the
// one it found.
func TestStartSetsLimit(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	stop := Start(80 << 20)
	if l := debug.SetMemoryLimit(-1); l == old || l < 110<<20 {
		t.Errorf("after Start, the memory limit is %d, want at least 110 MiB", l)
	}
	stop()
	if l := debug.SetMemoryLimit(-1); l != old {
		t.Errorf("after stop, the memory limit is %d, want the %d it found", l, old)
	}
}
