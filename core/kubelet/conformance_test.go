package kubelet_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/kubelet"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: kubelet.Component,
		New:  func() controller.Controller { return kubelet.New(kubelet.Options{}) },
	})
}
