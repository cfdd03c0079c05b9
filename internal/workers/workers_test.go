package workers

import (
	"sync/atomic"
	"testing"
)

func TestRunCallsEachOnce(t *testing.T) {
	for _, c := range []struct{ workers, n int }{{0, 100}, {1, 7}, {3, 2}, {2, 0}} {
		calls := make([]atomic.Int32, c.n)
		Run(c.workers, c.n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Errorf("workers=%d n=%d: job %d ran %d times", c.workers, c.n, i, got)
			}
		}
	}
}
