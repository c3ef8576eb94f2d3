package kubectl

import (
	"errors"
	"fmt"
	"io/fs"

	"converge/core/api"
)

// stdinSource is how kubectl names objects read from "-f -".
const stdinSource = "STDIN"

// readManifests reads and decodes -f files ("-" is stdin), returning the
// objects and, for each, the file it came from.
func (x *execCtx) readManifests(files []string) ([]api.Object, []string, error) {
	var objs []api.Object
	var sources []string
	for _, f := range files {
		data, source, err := x.readFile(f)
		if err != nil {
			return nil, nil, err
		}
		if x.env.Decode == nil {
			return nil, nil, &plainError{msg: fmt.Sprintf(msgPathNotExist, f)}
		}
		got, err := x.env.Decode(data, source)
		if err != nil {
			return nil, nil, &plainError{msg: err.Error()}
		}
		for _, o := range got {
			if o == nil {
				continue
			}
			objs = append(objs, o)
			sources = append(sources, source)
		}
	}
	return objs, sources, nil
}

func (x *execCtx) readFile(name string) ([]byte, string, error) {
	if name == "-" {
		return x.env.Stdin, stdinSource, nil
	}
	if x.env.ReadFile == nil {
		return nil, "", &plainError{msg: fmt.Sprintf(msgPathNotExist, name)}
	}
	data, err := x.env.ReadFile(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", &plainError{msg: fmt.Sprintf(msgPathNotExist, name)}
		}
		return nil, "", &plainError{msg: err.Error()}
	}
	return data, name, nil
}
