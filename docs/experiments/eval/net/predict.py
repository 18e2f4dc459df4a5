import numpy as np, sys, json
# predict.py NET.bin FENFILE -> FS-unit cp (side to move) per line
b=open(sys.argv[1],'rb').read(); n=int.from_bytes(b[:4],'little'); hdr=json.loads(b[4:4+n]); o=4+n
R,W,H,F,SC=hdr['R'],hdr['W'],hdr['H'],hdr['F'],hdr['scale']; letters=hdr['kinds']; K=len(letters); S=R*W
a=np.frombuffer(b[o:],dtype='<f4'); W1=a[:F*H].reshape(F,H); b1=a[F*H:F*H+H]; W2=a[F*H+H:F*H+3*H]; b2=a[F*H+3*H]
kind={c:i for i,c in enumerate(letters)}
for line in open(sys.argv[2]):
    f=line.split('|')[0]; p=f.split(); white=p[1]=='w'
    As=b1.copy(); An=b1.copy()
    for r,rank in enumerate(p[0].split('/')):
        file=0;num=''
        for ch in rank+' ':
            if ch.isdigit(): num+=ch; continue
            if num: file+=int(num); num=''
            if ch==' ': break
            c=0 if ch.isupper() else 1; k=kind[ch.lower()]
            fw=(c*K+k)*S+(R-1-r)*W+file; fb=((1-c)*K+k)*S+r*W+file
            if white: As=As+W1[fw]; An=An+W1[fb]
            else: As=As+W1[fb]; An=An+W1[fw]
            file+=1
    out=np.clip(As,0,1)@W2[:H]+np.clip(An,0,1)@W2[H:]+b2
    print(int(out*SC))
