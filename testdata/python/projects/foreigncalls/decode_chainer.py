import chainer


def decode(model, feats):
    with chainer.no_backprop_mode():
        return [model.recognize(f) for f in feats]
