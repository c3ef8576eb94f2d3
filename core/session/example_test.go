package session_test

import (
	"fmt"
	"testing/fstest"

	"converge/core/session"
)

func ExampleDecideAddress() {
	lib := session.NewLibrary(fstest.MapFS{
		"basic-loop.yaml": {Data: []byte("name: basic-loop\ntitle: The basic loop\nduration: 60s\n")},
	})
	for _, href := range []string{
		"https://example.com/?scenario=basic-loop&t=30&embed=1",
		"https://example.com/#s=@not-a-share",
		"https://example.com/?scenario=basic-loop&t=soon",
	} {
		o := session.DecideAddress(session.ParseAddress(href), lib)
		fmt.Printf("%s at %ds, embed %v\n", o.Name, o.T, o.Embed)
		if o.Error != "" {
			fmt.Println(" ", o.Error)
		}
	}
	// Output:
	// basic-loop at 30s, embed true
	// basic-loop at 0s, embed false
	//   The shared scenario cannot be opened: share link is corrupt: illegal base64 data at input byte 0. Showing the built-in scenario basic-loop instead.
	// basic-loop at 0s, embed false
	//   t=soon is not a whole number of seconds; opening at 0s.
}
