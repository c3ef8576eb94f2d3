package disruption_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/controller/disruption"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: disruption.Component,
		New:  func() controller.Controller { return disruption.New() },
	})
}
