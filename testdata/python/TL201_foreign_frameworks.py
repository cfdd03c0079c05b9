# Models of other frameworks record no autograd graph of torch's: an
# OpenCV DNN network, an MLX module. A torch model beside them is still
# judged.
import cv2
import mlx.core as mx
import mlx.nn as mnn
import torch
import torch.nn as nn


class MlxClassifier(mnn.Module):
    def __init__(self):
        super().__init__()
        self.fc = mnn.Linear(16, 2)

    def __call__(self, x):
        return self.fc(x)


def evaluate_mlx(model: mnn.Module, batches):
    model.eval()
    return [mx.argmax(model(x), axis=-1).tolist() for x in batches]  # ok: TL201 an MLX module


def evaluate_mlx_class(batches):
    net = MlxClassifier()
    net.eval()
    return [mx.argmax(net(x), axis=-1).tolist() for x in batches]  # ok: TL201 an MLX module


def detect(onnx_path, image):
    net: cv2.dnn.Net = cv2.dnn.readNetFromONNX(onnx_path)
    net.setInput(cv2.dnn.blobFromImage(image, 1 / 255, (64, 64)))
    return net.forward().argmax(-1).tolist()  # ok: TL201 an OpenCV network


def detect_loaded(onnx_path, image):
    model = cv2.dnn.readNet(onnx_path)
    model.setInput(image)
    return model.forward(image).tolist()  # ok: TL201 an OpenCV network


def evaluate_torch(batches):
    net = nn.Linear(16, 2)
    net.eval()
    return [net(x).argmax(-1).tolist() for x in batches]  # want: TL201 "net\(x\)"


print(evaluate_torch([torch.randn(4, 16)]))



# A transformers pipeline runs its model under its own no_grad.
from transformers import pipeline  # noqa: E402

classifier = pipeline("zero-shot-classification", model="local/model")
for sentence in ["good", "bad"]:
    print(classifier(sentence, ["positive", "negative"])["labels"][0])  # ok: TL201 a pipeline


# An ultralytics model predicts under its own inference mode.
from ultralytics import YOLO  # noqa: E402


def predict_heads(image_path, weights):
    model = YOLO(weights)
    results = model(image_path)  # ok: TL201 ultralytics predicts in inference mode
    return results[0].boxes.xyxy.cpu().numpy().tolist()
