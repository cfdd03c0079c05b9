# The losses of one clip are summed over its frames, inside one step, and
# put on self; the base classes back-propagate self.loss_G.
import torch.nn as nn

from base import BaseModel, Mixin


class VideoModel(Mixin, BaseModel):
    def __init__(self):
        super().__init__(nn.Linear(8, 8))
        self.l1 = nn.L1Loss()

    def forward(self, clip):
        self.clip = clip
        self.fakes = [self.net(f) for f in clip]

    def backward_G(self):
        rec, idt = 0, 0
        for i in range(len(self.clip)):
            rec += self.l1(self.fakes[i], self.clip[i])  # ok: back-propagated through self.loss_G by BaseModel.backward_G
            idt += self.l1(self.net(self.clip[i]), self.clip[i])  # ok: so is this, through a tuple of attributes
        self.loss_rec, self.loss_idt = [x / len(self.clip) for x in (rec, idt)]
        self.loss_G = self.loss_rec + self.loss_idt
        super().backward_G()

    def validate(self, loader):
        self.loss_G = 0
        total = 0
        for clip in loader:
            total += self.l1(self.net(clip[0]), clip[0])  # want: TL101 "seen to run through"
        return total.item()
