from engine import Detector, Logged


class App:
    def __init__(self):
        self.model = Detector()
        self.logged = Logged()

    def image_inference(self, frames):
        self.model.eval()
        return [self.model(f)[0].argmax(-1).tolist() for f in frames]  # ok: TL201 Model.__call__ runs under inference_mode

    def logged_inference(self, frames):
        self.logged.eval()
        return [self.logged(f).argmax(-1).tolist() for f in frames]  # want: TL201 "self.logged\(f\)"
