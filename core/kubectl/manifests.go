package kubectl

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

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
		if x.env.Stdin == nil {
			return nil, stdinSource, nil
		}
		data, err := io.ReadAll(x.env.Stdin)
		if err != nil {
			return nil, "", &plainError{msg: (&fs.PathError{Op: "read", Path: stdinSource, Err: err}).Error()}
		}
		return data, stdinSource, nil
	}
	p, ok := filePath(x.env.Dir, name)
	if x.env.Files == nil || !ok {
		return nil, "", &plainError{msg: fmt.Sprintf(msgPathNotExist, name)}
	}
	data, err := readAll(x.env.Files, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", &plainError{msg: fmt.Sprintf(msgPathNotExist, name)}
		}
		// Name the file as the user did, not by its path in Files.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, "", &plainError{msg: (&fs.PathError{Op: "read", Path: name, Err: err}).Error()}
	}
	return data, name, nil
}

// filePath is where FILE is in Env.Files (see Env): an absolute FILE from
// its root, a relative one from dir; ".." stops at the root, as it does in
// an OS path. It reports false for a name io/fs cannot take.
func filePath(dir, name string) (string, bool) {
	p := name
	if !path.IsAbs(p) {
		p = path.Join("/", dir, p)
	}
	p = strings.TrimPrefix(path.Clean(p), "/")
	if p == "" {
		p = "."
	}
	return p, fs.ValidPath(p)
}

// readAll reads the file name of fsys. Unlike fs.ReadFile it does not size
// its buffer by the file's size, so that a filesystem that bounds its reads
// (as the command line's does) also bounds the memory a huge file takes.
func readAll(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
