# Two levels down: VideoModel.backward_G back-propagates self.loss_G
# through its own base class.
from video import VideoModel


class SequenceModel(VideoModel):
    def backward_G(self):
        motion = 0
        for i in range(len(self.clip) - 1):
            motion += self.l1(self.fakes[i + 1] - self.fakes[i], self.clip[i + 1] - self.clip[i])  # ok: through self.loss_G
        self.loss_motion = motion
        self.loss_G = self.loss_G + self.loss_motion
        super().backward_G()
