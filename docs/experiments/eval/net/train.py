import numpy as np, sys, time, json
# train.py LABELS OUT.bin [H] [EPOCHS]
lab=sys.argv[1]; outp=sys.argv[2]; H=int(sys.argv[3]) if len(sys.argv)>3 else 128
EPOCHS=int(sys.argv[4]) if len(sys.argv)>4 else 8
BASE=sys.argv[5] if len(sys.argv)>5 else None
rows=[l.rstrip('\n').rsplit('|',1) for l in open(lab)]
fens=[r[0] for r in rows]; cpw=np.array([int(r[1]) for r in rows],dtype=np.float32)
b0=fens[0].split()[0].split('/'); R=len(b0)
def width(rank):
    w=0;num=''
    for ch in rank:
        if ch.isdigit(): num+=ch
        else:
            if num: w+=int(num); num=''
            w+=1
    if num: w+=int(num)
    return w
W=width(b0[0]); S=R*W
letters=sorted({c.lower() for f in fens[:20000] for c in f.split()[0] if c.isalpha()})
K=len(letters); kind={c:i for i,c in enumerate(letters)}
F=2*K*S; MAXP=2*S if 2*S<64 else 64
print('board',R,'x',W,'kinds',letters,'features',F,'samples',len(fens),flush=True)
N=len(fens)
IS=np.full((N,MAXP),F,dtype=np.int32); IN=np.full((N,MAXP),F,dtype=np.int32)
sgn=np.empty(N,dtype=np.float32)
for i,f in enumerate(fens):
    p=f.split(); ranks=p[0].split('/'); white=p[1]=='w'; sgn[i]=1 if white else -1
    j=0
    for r,rank in enumerate(ranks):  # r=0 is the top rank (rank R)
        file=0;num=''
        for ch in rank+' ':
            if ch.isdigit(): num+=ch; continue
            if num: file+=int(num); num=''
            if ch==' ': break
            if not ch.isalpha(): continue
            c=0 if ch.isupper() else 1; k=kind[ch.lower()]
            sq_w=(R-1-r)*W+file      # white's view: rank index from white's side
            sq_b=r*W+file            # black's view: mirrored ranks
            fw=(c*K+k)*S+sq_w        # colour 0 = white's piece
            fb=((1-c)*K+k)*S+sq_b    # colour 0 = black's piece
            if white: IS[i,j]=fw; IN[i,j]=fb
            else: IS[i,j]=fb; IN[i,j]=fw
            j+=1; file+=1
t_cp=cpw*sgn
base=np.zeros(N,dtype=np.float32); KB=0.0
if BASE:
    bw=np.load(BASE); m0=np.abs(cpw)<1500
    KB=float(np.sum(bw[m0]*cpw[m0])/np.sum(bw[m0]**2)); base=(bw*sgn*KB).astype(np.float32)
    print('base scale',KB,flush=True)
np.random.seed(1)
nval=N//20; tr=np.arange(0,N-nval); va=np.arange(N-nval,N)
W1=(np.random.randn(F+1,H)*0.05).astype(np.float32); W1[F]=0
b1=np.full(H,0.3,dtype=np.float32)
W2=(np.random.randn(2*H)*(0.01 if BASE else 0.05)).astype(np.float32); b2=np.float32(0)
params=[W1,b1,W2]; m=[np.zeros_like(x) for x in params]; v=[np.zeros_like(x) for x in params]
mb2=0.0;vb2=0.0
sig=lambda x:1/(1+np.exp(-x))
SC=400.0
def dense(I):
    B=I.shape[0]; X=np.zeros((B,F+1),dtype=np.float32)
    np.put_along_axis(X,I,1.0,axis=1)
    # duplicate padding index F gets 1 once; W1[F]=0 keeps it inert
    return X
def forward(i):
    Xs=dense(IS[i]); Xn=dense(IN[i])
    As=Xs@W1+b1; An=Xn@W1+b1
    hs=np.clip(As,0,1); hn=np.clip(An,0,1)
    o=hs@W2[:H]+hn@W2[H:]+b2+base[i]/SC
    return Xs,Xn,As,An,hs,hn,o
def evaluate(idx):
    out=[]
    for s in range(0,len(idx),4096):
        out.append(forward(idx[s:s+4096])[-1])
    o=np.concatenate(out); t=t_cp[idx]
    loss=np.mean((sig(o)-sig(t/SC))**2)
    mask=np.abs(t)<1500
    pc=o*SC
    rmse=np.sqrt(np.mean((pc[mask]-t[mask])**2)); corr=np.corrcoef(pc[mask],t[mask])[0,1]
    return loss,rmse,corr
lr=1e-3; step=0; B=1024
for ep in range(EPOCHS):
    t0=time.time(); np.random.shuffle(tr)
    if ep==EPOCHS-2: lr*=0.3
    if ep==EPOCHS-1: lr*=0.3
    for s in range(0,len(tr)-B+1,B):
        i=tr[s:s+B]
        Xs,Xn,As,An,hs,hn,o=forward(i)
        p=sig(o); t=sig(t_cp[i]/SC)
        do=2*(p-t)*p*(1-p)/B
        gW2=np.concatenate([hs.T@do,hn.T@do]); gb2=do.sum()
        das=np.outer(do,W2[:H])*((As>0)&(As<1)); dan=np.outer(do,W2[H:])*((An>0)&(An<1))
        gW1=Xs.T@das+Xn.T@dan; gb1=das.sum(0)+dan.sum(0)
        step+=1
        for k,(x,g) in enumerate(zip(params,[gW1,gb1,gW2])):
            m[k]=0.9*m[k]+0.1*g; v[k]=0.999*v[k]+0.001*g*g
            x-= lr*(m[k]/(1-0.9**step))/(np.sqrt(v[k]/(1-0.999**step))+1e-8)
        mb2=0.9*mb2+0.1*gb2; vb2=0.999*vb2+0.001*gb2*gb2
        b2-= lr*(mb2/(1-0.9**step))/(np.sqrt(vb2/(1-0.999**step))+1e-8)
        W1[F]=0
    print('epoch',ep,'time %.0f'%(time.time()-t0),'val loss %.5f rmse %.1f corr %.4f'%evaluate(va),flush=True)
hdr=dict(R=R,W=W,kinds=letters,H=H,F=F,scale=SC,base_scale=KB)
with open(outp,'wb') as f:
    hb=json.dumps(hdr).encode(); f.write(len(hb).to_bytes(4,'little')); f.write(hb)
    f.write(W1[:F].astype('<f4').tobytes()); f.write(b1.astype('<f4').tobytes())
    f.write(W2.astype('<f4').tobytes()); f.write(np.float32(b2).astype('<f4').tobytes())
np.save(outp+'.val.npy',va)
print('saved',outp)
