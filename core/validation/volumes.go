package validation

import (
	"encoding/json"

	"converge/core/api"
	"converge/core/validation/field"
)

// Volumes and volume mounts are kept as raw JSON; only their names and the
// mount references are validated, as ValidateVolumes and
// ValidateVolumeMounts do.

// validateVolumes checks each volume's name (required, DNS label, unique)
// and that it has a volume type, and returns the names of the valid ones.
func validateVolumes(raw api.Raw, p *path) (map[string]bool, field.ErrorList) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var vols []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &vols); err != nil {
		return nil, field.ErrorList{p.invalid(string(raw), "must be a list of volumes")}
	}
	var errs field.ErrorList
	names := map[string]bool{}
	for i, v := range vols {
		vp := p.at(i)
		var name string
		_ = json.Unmarshal(v["name"], &name)
		var el field.ErrorList
		types := len(v)
		if _, ok := v["name"]; ok {
			types--
		}
		if types == 0 {
			el = append(el, vp.required("must specify a volume type"))
		}
		np := vp.child("name")
		if name == "" {
			el = append(el, np.required(""))
		} else {
			el = append(el, validateDNS1123Label(name, &np)...)
		}
		if names[name] {
			el = append(el, np.duplicate(name))
		}
		if len(el) == 0 {
			names[name] = true
		} else {
			errs = append(errs, el...)
		}
	}
	return names, errs
}

// validateVolumeMounts checks that each mount names a volume of the pod and
// has a unique mountPath.
func validateVolumeMounts(raw api.Raw, vols map[string]bool, p *path) field.ErrorList {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var mounts []struct {
		Name      string `json:"name"`
		MountPath string `json:"mountPath"`
	}
	if err := json.Unmarshal(raw, &mounts); err != nil {
		return field.ErrorList{p.invalid(string(raw), "must be a list of volume mounts")}
	}
	var errs field.ErrorList
	paths := map[string]bool{}
	for i, m := range mounts {
		mp := p.at(i)
		if m.Name == "" {
			errs = append(errs, mp.child("name").required(""))
		}
		if !vols[m.Name] {
			errs = append(errs, mp.child("name").notFound(m.Name))
		}
		if m.MountPath == "" {
			errs = append(errs, mp.child("mountPath").required(""))
		}
		if paths[m.MountPath] {
			errs = append(errs, mp.child("mountPath").invalid(m.MountPath, "must be unique"))
		}
		paths[m.MountPath] = true
	}
	return errs
}
