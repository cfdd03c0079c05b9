"""TL201: exploration noise made like the action (`torch.randn_like`)
reads its shape, dtype and device alone; the action, noised and clamped,
goes to the environment as an array."""
import torch
from torch import nn


def online_tuning(env, actor: nn.Module, critic: nn.Module, trainer, replay_buffer, steps, max_action=1.0):
    state = env.reset()
    for t in range(steps):
        action = actor(torch.tensor(state.reshape(1, -1), dtype=torch.float32))  # want: TL201(medium) "only reach the host"
        noise = (torch.randn_like(action) * 0.1).clamp(-0.5, 0.5)
        action += noise
        action = torch.clamp(max_action * action, -max_action, max_action)
        state, reward, done, _ = env.step(action.cpu().data.numpy().flatten())
        replay_buffer.add(state, reward, done)
        trainer.train(replay_buffer.sample(256))


def actor_step(actor: nn.Module, critic: nn.Module, actor_optimizer, batch):
    for states in batch:
        action = actor(states)  # ok: the noised action is back-propagated through the critic
        noise = torch.randn_like(action) * 0.1
        loss = -critic(states, action + noise).mean()
        actor_optimizer.zero_grad()
        loss.backward()
        actor_optimizer.step()
