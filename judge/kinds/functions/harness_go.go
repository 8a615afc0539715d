// The judge's harness of a Go function (judge_harness.go in the box, package main): what
// main.go, made from the signature, uses to read one call's arguments (JSON on stdin), call
// the student's function, and write what came of it after a mark as the last line of stdout
// (harness_python.py's protocol). A panic is Go's exception. Every name here starts with
// judge, so none is the student's. The expected value is never here: the judge compares
// outside the sandbox.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

type judgeUnserializable struct{ what string }

func judgeArguments() []json.RawMessage {
	data, _ := io.ReadAll(os.Stdin)
	var call []json.RawMessage
	if err := json.Unmarshal(data, &call); err != nil {
		judgeReport(`{"import":{"raised":"the call is not a JSON array"}}`)
	}
	return call
}

// judgeSteps: a class's scenario, each step [name, arguments...].
func judgeSteps() [][]json.RawMessage {
	var steps [][]json.RawMessage
	for _, raw := range judgeArguments() {
		var step []json.RawMessage
		if err := json.Unmarshal(raw, &step); err != nil {
			judgeReport(`{"import":{"raised":"a step is not a JSON array"}}`)
		}
		steps = append(steps, step)
	}
	return steps
}

func judgeRead(raw json.RawMessage, into interface{}) {
	if err := json.Unmarshal(raw, into); err != nil {
		panic(fmt.Sprintf("an argument is not of its Go type: %v", err))
	}
}

func judgeQuote(text string) string {
	var out strings.Builder
	out.WriteByte('"')
	for _, r := range text {
		switch {
		case r == '"':
			out.WriteString(`\"`)
		case r == '\\':
			out.WriteString(`\\`)
		case r < 32:
			out.WriteString(fmt.Sprintf(`\u%04x`, r))
		default:
			out.WriteRune(r)
		}
	}
	out.WriteByte('"')
	return out.String()
}

// judgeDump: JSON of a value by its kind (a nil slice is an empty list, a nil pointer null).
func judgeDump(v reflect.Value, depth int) string {
	if depth > 1000 {
		panic(judgeUnserializable{"a value nested too deep"})
	}
	switch v.Kind() {
	case reflect.Invalid:
		return "null"
	case reflect.Bool:
		if v.Bool() {
			return "true"
		}
		return "false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			panic(judgeUnserializable{"float (not finite)"})
		}
		text := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(text, ".eE") {
			text += ".0"
		}
		return text
	case reflect.String:
		return judgeQuote(v.String())
	case reflect.Slice, reflect.Array:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = judgeDump(v.Index(i), depth+1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			panic(judgeUnserializable{"a map with keys of " + v.Type().Key().String()})
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		parts := make([]string, len(keys))
		for i, key := range keys {
			parts[i] = judgeQuote(key.String()) + ":" + judgeDump(v.MapIndex(key), depth+1)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case reflect.Ptr, reflect.Interface:
		if v.IsNil() {
			return "null"
		}
		return judgeDump(v.Elem(), depth+1)
	}
	panic(judgeUnserializable{v.Type().String()})
}

func judgeReturned(value interface{}) string {
	return `{"returned":` + judgeDump(reflect.ValueOf(value), 0) + "}"
}

func judgeRaised(r interface{}) string {
	kind := "panic"
	if _, plain := r.(string); !plain {
		kind = fmt.Sprintf("%T", r)
	}
	message := fmt.Sprint(r)
	if len(message) > 500 {
		message = message[:500]
	}
	return `{"raised":` + judgeQuote(kind) + `,"message":` + judgeQuote(message) + "}"
}

// judgeScenario: a class's result, each step's outcome in turn.
func judgeScenario(said []string) string {
	return `{"steps":[` + strings.Join(said, ",") + "]}"
}

// judgeCall: what one call came to; a panic is what it raised.
func judgeCall(call func() string) (got string) {
	defer func() {
		if r := recover(); r != nil {
			if u, ok := r.(judgeUnserializable); ok {
				got = `{"unserializable":` + judgeQuote(u.what) + "}"
				return
			}
			got = judgeRaised(r)
		}
	}()
	return call()
}

// judgeOut: a copy of descriptor 1, taken before the student's code runs (a package's
// variables are set before any init(), this file's first). A student's init() that sets
// os.Stdout = os.Stderr leaves the old *os.File to Go's finalizer, which closes descriptor 1.
var judgeOut = func() int {
	fd, err := syscall.Dup(1)
	if err != nil {
		return 1
	}
	return fd
}()

// judgeReport: the result line on the harness's own copy of descriptor 1 (whatever os.Stdout
// now is, and whether or not descriptor 1 is still open), then the end.
func judgeReport(text string) {
	os.Stdout.Sync()
	line := []byte("\n\x1ejudge-result\x1e " + text + "\n")
	syscall.Write(judgeOut, line)
	syscall.Exit(0)
}
