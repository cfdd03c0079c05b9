import numpy as np

from kernels import GaussKernel, LearnedKernel
from nets import Audio2Mel, Backbone, Classifier, Flow, Lowpass, Noise, Stretch, Vgg, flow
from post import postprocess


def embed(images):
    net = Backbone()
    net.eval()
    return np.stack([net(x).cpu().numpy() for x in images])  # ok: TL201 frozen by its constructor


def warp_error(pairs):
    model = Flow()
    return sum(np.abs(model(a, b)[0].cpu().numpy()).sum() for a, b in pairs)  # ok: TL201 forward under no_grad


def shared_flow(pairs):
    return [flow(a, b)[1].cpu().numpy() for a, b in pairs]  # ok: TL201 module-level instance of Flow


def noisy(images):
    aug = Noise()
    return [aug(x).cpu().numpy() for x in images]  # ok: TL201 no parameters


def show_mels(waves):
    to_mel = Audio2Mel()
    for w in waves:
        print(to_mel.forward(w).mean().item())  # ok: TL201 buffers only, its filter bank from librosa


def predict(images):
    model = Classifier()
    model.eval()
    return [model(x).argmax(1).tolist() for x in images]  # want: TL201 "model\(x\)"


def show_stretched(waves):
    to_mel = Stretch()
    to_mel.eval()
    for w in waves:
        print(to_mel(w).mean().item())  # ok: TL201 a transform of torchaudio's, extended in another file


def show_filtered(images):
    lp = Lowpass()
    lp.eval()
    for x in images:
        print(lp(x).mean().item())  # ok: TL201 its one parameter frozen by the constructor's default, in another file


def plot_bins(xs):
    kernel = GaussKernel(0.2, 0.8)
    kernel.eval()
    return [kernel(x).tolist() for x in xs]  # ok: TL201 no parameter, its base in another file


def plot_learned(xs):
    kernel = LearnedKernel(0.2, 0.8)
    kernel.eval()
    return [kernel(x).tolist() for x in xs]  # want: TL201 "kernel\(x\)"


def style_targets(styles):
    vgg = Vgg(requires_grad=False)
    vgg.eval()
    return [vgg(s).mean().item() for s in styles]  # ok: TL201 built frozen by its constructor's argument


def trainable_targets(styles):
    vgg = Vgg()
    vgg.eval()
    return [vgg(s).mean().item() for s in styles]  # want: TL201 "vgg\(s\)"


def noisy_means(images):
    noise = Noise()
    return [postprocess(x, noise) for x in images]  # ok: TL201 the helper runs a module with no parameter


def classified_means(images):
    model = Classifier()
    model.eval()
    return [postprocess(x, model) for x in images]  # want: TL201 "postprocess\(x, model\)"
