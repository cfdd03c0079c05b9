"""TL201: a script's rollout, at module level, whose log-probabilities the
same module-level code back-propagates at the episode's end: the passes
are trained through."""
import gym
import torch
from torch import nn

policy_net = nn.Sequential(nn.Linear(4, 2), nn.Softmax(-1))
optimizer = torch.optim.Adam(policy_net.parameters())
env = gym.make("CartPole-v1")
for episode in range(100):
    log_probs, rewards = [], []
    state, done = env.reset(), False
    while not done:
        probs = policy_net(torch.as_tensor(state).unsqueeze(0))  # ok: TL201 back-propagated at the episode's end
        action = probs.multinomial(1)
        log_probs.append(probs.gather(1, action).log())
        state, reward, done, _ = env.step(action.item())
        rewards.append(reward)
    returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
    loss = -(torch.cat(log_probs).squeeze(1) * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
