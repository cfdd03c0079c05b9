import torch

from models import Fusable, GradPredictor, Plain, Predictor, Saliency, SelfClearing


def train(batches):
    model = SelfClearing()
    enc_optim = torch.optim.Adam(model.enc.parameters())
    dec_optim = torch.optim.Adam(model.dec.parameters())
    for x, y in batches:
        loss = model(x, y)  # the forward, in models.py, clears the gradients
        loss.backward()
        enc_optim.step()  # ok
        dec_optim.step()  # ok


def train_plain(batches):
    model = Plain()
    optim = torch.optim.Adam(model.parameters())
    for x, y in batches:
        loss = model(x, y)
        loss.backward()
        optim.step()  # want: TL502 "never clears"


def quantize(path, images):
    net = Fusable()
    net.load_state_dict(torch.load(path, map_location="cpu"))
    net.eval()
    net.fuse_model()  # ok: defined in models.py, runs no forward pass
    return net.embed(images)  # want: TL201 "forward pass"


def predict_all(net, images):
    predictor = Predictor(net.eval())
    return [predictor(image).tolist() for image in images]  # ok: Predictor.__call__, in models.py, disables grad


def predict_all_with_grad(net, images):
    predictor = GradPredictor(net.eval())
    return [predictor(image).tolist() for image in images]  # reported in models.py, where GradPredictor runs the network


def saliency_maps(net, images):
    sal = Saliency(net)
    maps, raw = [], []
    for image in images:
        probs = sal.forward(image)
        sal.backward(probs.argmax(1)[0])
        maps.append(sal.generate())  # ok: Saliency.generate, in models.py, returns a NumPy array
        raw.append(sal.logits(image))  # want: TL102 "store"
    return maps, raw
