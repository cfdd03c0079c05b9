from saliency.guided import GuidedBackprop
