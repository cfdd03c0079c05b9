import cv2
import numpy as np
import torch
from torchvision import models

from saliency import GuidedBackprop


def deprocess(img):
    img = img - np.mean(img)
    img = img / (np.std(img) + 1e-5)
    return np.uint8(np.clip(img, 0, 1) * 255)


def show(model, input_tensor):
    model.eval()
    out = model(input_tensor)  # want: TL201 "model\(input_tensor\)"
    cv2.imwrite("out.jpg", deprocess(out.cpu().detach().numpy()))


if __name__ == "__main__":
    model = models.resnet50()
    input_tensor = torch.randn(1, 3, 224, 224)
    gb_model = GuidedBackprop(model=model)
    gb = gb_model(input_tensor, target=None)  # ok: TL201 the wrapper back-propagates its own pass
    cam_mask = np.ones((224, 224, 3))
    cam_gb = deprocess(cam_mask * gb)
    gb = deprocess(gb)
    cv2.imwrite("gb.jpg", gb)
    cv2.imwrite("cam_gb.jpg", cam_gb)
    show(model, input_tensor)
