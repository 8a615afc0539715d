// One program, every verdict: the first word of the input says what to do.
package main

import (
	"fmt"
	"os"
)

func main() {
	var mode string
	fmt.Scan(&mode)
	switch mode {
	case "add":
		var a, b int64
		fmt.Scan(&a, &b)
		fmt.Println(a + b)
	case "loop":
		x := 0
		for {
			x++
		}
	case "alloc":
		var n int
		fmt.Scan(&n)
		blocks := make([][]byte, n)
		for i := range blocks {
			blocks[i] = make([]byte, 1<<20)
			for j := 0; j < len(blocks[i]); j += 4096 {
				blocks[i][j] = 1 // a byte a page makes it resident; every byte cost CPU time near the limit
			}
		}
		fmt.Println(len(blocks))
	case "crash":
		var none []int
		fmt.Println(none[3])
	case "peek":
		var path string
		fmt.Scan(&path)
		data, err := os.ReadFile(path)
		if err != nil {
			os.Exit(4)
		}
		fmt.Print(string(data))
	}
}
