package validation

import (
	"encoding/base64"
	"reflect"

	"converge/core/api"
	"converge/core/validation/field"
)

// maxConfigMapSize is core.MaxSecretSize, which bounds ConfigMaps too.
const maxConfigMapSize = 1 * 1024 * 1024

// ValidateConfigMap validates a v1 ConfigMap on create (old == nil) or update
// (ValidateConfigMap / ValidateConfigMapUpdate): keys of data and binaryData
// are config keys, not in both, 1 MiB in all; an immutable ConfigMap's data
// cannot change and it cannot be made mutable again.
func ValidateConfigMap(c, old *api.ConfigMap) field.ErrorList {
	var errs field.ErrorList
	meta := root("metadata")
	if old != nil {
		errs = validateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, &meta)
		if old.Immutable != nil && *old.Immutable {
			const msg = "field is immutable when `immutable` is set"
			if c.Immutable == nil || !*c.Immutable {
				errs = append(errs, root("immutable").forbidden(msg))
			}
			if !reflect.DeepEqual(c.Data, old.Data) {
				errs = append(errs, root("data").forbidden(msg))
			}
			if !reflect.DeepEqual(c.BinaryData, old.BinaryData) {
				errs = append(errs, root("binaryData").forbidden(msg))
			}
		}
	}
	errs = append(errs, validateObjectMeta(&c.ObjectMeta, true, nameIsDNSSubdomain, &meta)...)
	total := 0
	data, binary := root("data"), root("binaryData")
	for _, k := range sortedKeys(c.Data) {
		kp := data.keyAt(k)
		for _, msg := range IsConfigMapKey(k) {
			errs = append(errs, kp.invalid(k, msg))
		}
		if _, dup := c.BinaryData[k]; dup {
			errs = append(errs, kp.invalid(k, "duplicate of key present in binaryData"))
		}
		total += len(c.Data[k])
	}
	for _, k := range sortedKeys(c.BinaryData) {
		for _, msg := range IsConfigMapKey(k) {
			errs = append(errs, binary.keyAt(k).invalid(k, msg))
		}
		total += binarySize(c.BinaryData[k])
	}
	if total > maxConfigMapSize {
		// the empty path "[]" means the whole object, as in kube.
		errs = append(errs, root("").tooLong("", maxConfigMapSize))
	}
	return errs
}

// binarySize is the decoded size of a binaryData value (base64 text).
func binarySize(v string) int {
	if b, err := base64.StdEncoding.DecodeString(v); err == nil {
		return len(b)
	}
	return len(v)
}
