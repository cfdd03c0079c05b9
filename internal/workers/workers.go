// Package workers runs independent jobs on a fixed number of goroutines.
package workers

import (
	"runtime"
	"sync"
)

// Run calls do(i) for every i in [0, n) on n workers at most, and
// returns when all calls have. workers <= 0 means GOMAXPROCS.
func Run(workers, n int, do func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				do(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}
