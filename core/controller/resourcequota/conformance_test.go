package resourcequota_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/controller/resourcequota"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: resourcequota.Component,
		New:  func() controller.Controller { return resourcequota.New() },
	})
}
